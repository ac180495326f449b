import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runProcess } from '@skillopt/runtime-kit';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';

/**
 * Issue #19 item 6: configs/features/claude-code-demo.yaml trains the demo end to end with the real
 * Claude Code CLI as the target (and, in the second run, as the optimizer too) against `sim serve`,
 * finishing with lift and the CLI's own token counts in the ledger.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const cliEntry = path.join(root, 'apps', 'cli', 'bin', 'run.js');
const TRAIN_TIMEOUT_MS = 400_000;

interface LedgerLine {
  line: string;
  sequence: number;
  role?: string;
  provider?: string;
  usage?: { inputTokens: number; cacheWriteInputTokens?: number; estimated?: boolean };
}
interface Accuracy {
  hard: number;
}
interface RunSummary {
  test: { initial: Accuracy; best: Accuracy };
  excludedItems: unknown[];
}

async function withSimServe(body: (origin: string) => Promise<void>): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), 'claude-code-demo-sim-'));
  const readyFile = path.join(directory, 'ready.json');
  const server = spawn(process.execPath, [cliEntry, 'sim', 'serve', '--config', 'configs/demo/default.yaml', '--ready-file', readyFile], {
    cwd: root,
    stdio: 'ignore',
  });
  try {
    for (let waited = 0; !existsSync(readyFile) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    const { origin } = JSON.parse(readFileSync(readyFile, 'utf8')) as { origin: string };
    await body(origin);
  } finally {
    server.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
  }
}

async function trainDemo(cli: LocatedAgentCli, origin: string, extra: readonly string[]) {
  const out = mkdtempSync(path.join(tmpdir(), 'claude-code-demo-run-'));
  const result = await runProcess({
    command: process.execPath,
    args: [
      cliEntry,
      'train',
      '--config',
      'configs/features/claude-code-demo.yaml',
      '--out',
      path.join(out, 'run'),
      '--set',
      `backends.claude-code.base_url=${origin}`,
      '--set',
      `backends.claude-code.path=${cli.binary}`,
      ...extra,
    ],
    cwd: root,
    allowedEnvironmentVariables: ['PATH', 'HOME', 'TMPDIR', 'LANG'],
    extraEnvironmentVariables: { ANTHROPIC_API_KEY: 'sim' },
    timeoutMs: TRAIN_TIMEOUT_MS,
    provider: 'skillopt',
  });
  const run = path.join(out, 'run');
  const summary = existsSync(path.join(run, 'summary.json')) ? (JSON.parse(readFileSync(path.join(run, 'summary.json'), 'utf8')) as RunSummary) : undefined;
  const ledger = existsSync(path.join(run, 'ledger.jsonl'))
    ? readFileSync(path.join(run, 'ledger.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LedgerLine)
    : [];
  rmSync(out, { recursive: true, force: true });
  return { result, summary, ledger };
}

function expectLiftWithReportedTokens(outcome: Awaited<ReturnType<typeof trainDemo>>, roles: readonly string[]): void {
  if (outcome.result.exitCode !== 0)
    throw new Error(`train exited ${outcome.result.exitCode}: ${outcome.result.stderr.slice(-3000)}\n${outcome.result.stdout.slice(-2000)}`);
  expect(outcome.summary?.test.best.hard).toBeGreaterThan(outcome.summary?.test.initial.hard ?? 1);
  expect(outcome.summary?.excludedItems).toEqual([]);
  const started = new Map(outcome.ledger.filter((line) => line.line === 'call-started').map((line) => [line.sequence, line]));
  const finished = outcome.ledger.filter((line) => line.line === 'call-finished' && started.get(line.sequence)?.provider === 'claude-code');
  for (const role of roles) {
    const ofRole = finished.filter((line) => started.get(line.sequence)?.role === role);
    expect(ofRole.length).toBeGreaterThan(0);
    for (const line of ofRole) {
      expect(line.usage?.estimated).toBeUndefined();
      expect(line.usage?.inputTokens).toBeGreaterThan(0);
      expect(typeof line.usage?.cacheWriteInputTokens).toBe('number');
    }
  }
}

testWithAgentCli(
  'claude',
  'the claude-code demo trains with lift against sim serve, the ledger holding the tokens Claude Code reported',
  async (cli) => {
    await withSimServe(async (origin) => {
      expectLiftWithReportedTokens(await trainDemo(cli, origin, []), ['target']);
    });
  },
  TRAIN_TIMEOUT_MS + 30_000,
);

testWithAgentCli(
  'claude',
  'the claude-code demo with Claude Code as the optimizer too',
  async (cli) => {
    await withSimServe(async (origin) => {
      expectLiftWithReportedTokens(await trainDemo(cli, origin, ['--set', 'model.optimizer_backend=claude-code']), ['target', 'optimizer']);
    });
  },
  TRAIN_TIMEOUT_MS + 30_000,
);
