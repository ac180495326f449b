import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '@skillopt/runtime-kit';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';

// Item 5 of issue 20: configs/features/opencode-demo.yaml trains to the end against `skillopt sim
// serve`, with the real OpenCode CLI as the target agent: the best skill's test accuracy above the
// initial's, the ledger holding the tokens OpenCode reported for every rollout it ran. (OpenCode as
// the optimizer is left to opencode-backend.test.ts's chat call: a second training would double
// this file's share of the CI budget.)

const repository = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(repository, 'apps', 'cli', 'bin', 'run.js');
// A hard limit well above the demo on 2 cores (about 48 OpenCode runs, two at a time, each several seconds of CPU).
const TRAINING_TIMEOUT_MS = 600_000;

interface LedgerLine {
  line: string;
  sequence: number;
  role?: string;
  provider?: string;
  usage?: { inputTokens: number; outputTokens: number; estimated?: boolean };
}

/** `skillopt sim serve` for the demo's items on a free loopback port, stopped (by its pid) after `body`. */
async function withSimServe(body: (url: string) => Promise<void>): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'opencode-demo-sim-'));
  const readyFile = path.join(directory, 'ready.json');
  const server = spawn(process.execPath, [cli, 'sim', 'serve', '--config', 'configs/demo/default.yaml', '--port', '0', '--ready-file', readyFile], {
    cwd: repository,
    stdio: 'ignore',
  });
  try {
    for (let waited = 0; !existsSync(readyFile); waited += 100) {
      if (waited > 60_000 || server.exitCode !== null) throw new Error('sim serve did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await body((JSON.parse(readFileSync(readyFile, 'utf8')) as { url: string }).url);
  } finally {
    server.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
  }
}

async function trainDemo(opencode: LocatedAgentCli, url: string) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'opencode-demo-run-'));
  const out = path.join(directory, 'run');
  try {
    const result = await runProcess({
      command: process.execPath,
      args: [
        cli,
        'train',
        '--config',
        'configs/features/opencode-demo.yaml',
        '--set',
        `backends.opencode.path=${opencode.binary}`,
        '--set',
        `backends.opencode.base_url=${url}`,
        '--out',
        out,
      ],
      cwd: repository,
      allowedEnvironmentVariables: ['PATH'],
      extraEnvironmentVariables: { HOME: directory, OPENCODE_API_KEY: 'sim', NO_COLOR: '1' },
      timeoutMs: TRAINING_TIMEOUT_MS,
      provider: 'skillopt',
    });
    if (result.exitCode !== 0) throw new Error(`skillopt train ended with ${result.exitCode}:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as {
      test: { initial: { hard: number; excluded: number }; best: { hard: number; excluded: number } };
      targetModel: { provider: string };
    };
    const ledger = readFileSync(path.join(out, 'ledger.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LedgerLine);
    return { summary, ledger };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The calls of `role` the ledger saw made (a `call-started` line and its `call-finished`), with the usage they finished with. */
function madeCalls(ledger: readonly LedgerLine[], role: string): Array<{ provider: string | undefined; usage: LedgerLine['usage'] }> {
  const finished = new Map(ledger.filter((line) => line.line === 'call-finished').map((line) => [line.sequence, line]));
  return ledger
    .filter((line) => line.line === 'call-started' && line.role === role)
    .map((line) => ({ provider: line.provider, usage: finished.get(line.sequence)?.usage }));
}

describe('the opencode demo (configs/features/opencode-demo.yaml) against sim serve', () => {
  testWithAgentCli(
    'opencode',
    'trains with OpenCode as the target agent: the best skill beats the initial one on test, every rollout’s tokens as OpenCode reported them',
    async (opencode) => {
      await withSimServe(async (url) => {
        const { summary, ledger } = await trainDemo(opencode, url);
        expect(summary.test.best.hard).toBeGreaterThan(summary.test.initial.hard);
        expect(summary.test.best.excluded).toBe(0);
        const rollouts = madeCalls(ledger, 'target');
        expect(rollouts.length).toBeGreaterThanOrEqual(12);
        for (const rollout of rollouts) {
          expect(rollout.provider).toBe('opencode');
          expect(rollout.usage?.estimated).toBeUndefined();
          expect(rollout.usage?.inputTokens).toBeGreaterThan(0);
        }
      });
    },
    TRAINING_TIMEOUT_MS + 60_000,
  );
});
