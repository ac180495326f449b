import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '@skillopt/runtime-kit';

// A demo training of the `skillopt` CLI against `skillopt sim serve`, for the demo tests of the
// agent CLIs: the server on a free loopback port, one `skillopt train`, and its summary and ledger.

const repository = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repository, 'apps', 'cli', 'bin', 'run.js');

export interface LedgerLine {
  line: string;
  sequence: number;
  role?: string;
  purpose?: string;
  provider?: string;
  usage?: { inputTokens: number; outputTokens: number; estimated?: boolean };
}

export interface DemoSummary {
  baseline: { score: number };
  best: { score: number };
  acceptedCandidates: number;
  rejectedCandidates: number;
  test: { initial: { hard: number; soft: number; excluded: number }; best: { hard: number; soft: number; excluded: number } };
}

/**
 * `skillopt sim serve` for the items of `config` (default: the demo's, with the `--set`
 * overrides of `settings`) on a free loopback port, stopped (by its pid) after `body`.
 */
export async function withSimServe(
  body: (url: string) => Promise<void>,
  config = 'configs/demo/default.yaml',
  settings: readonly string[] = [],
): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'demo-sim-'));
  const readyFile = path.join(directory, 'ready.json');
  const overrides = settings.flatMap((setting) => ['--set', setting]);
  const server = spawn(process.execPath, [cli, 'sim', 'serve', '--config', config, ...overrides, '--port', '0', '--ready-file', readyFile], {
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

export interface DemoTraining {
  /** The run config, relative to the repository. */
  config: string;
  /** `--set key=value` overrides, in order. */
  settings: readonly string[];
  /** Variables of the training process besides PATH and a fresh HOME (the CLI's key). */
  environment: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Reads what the test needs from the run directory before it is removed. */
  inspectRun?: (runDirectory: string) => void;
}

/** One `skillopt train` of `training` in a fresh output folder; its summary and ledger lines. */
export async function trainDemo(training: DemoTraining): Promise<{ summary: DemoSummary; ledger: LedgerLine[] }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'demo-run-'));
  const out = path.join(directory, 'run');
  try {
    const result = await runProcess({
      command: process.execPath,
      args: [cli, 'train', '--config', training.config, ...training.settings.flatMap((setting) => ['--set', setting]), '--out', out],
      cwd: repository,
      allowedEnvironmentVariables: ['PATH'],
      extraEnvironmentVariables: { HOME: directory, NO_COLOR: '1', ...training.environment },
      timeoutMs: training.timeoutMs,
      provider: 'skillopt',
    });
    if (result.exitCode !== 0) throw new Error(`skillopt train ended with ${result.exitCode}:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as DemoSummary;
    training.inspectRun?.(out);
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
export function madeCalls(ledger: readonly LedgerLine[], role: string): Array<{ provider: string | undefined; usage: LedgerLine['usage'] }> {
  const finished = new Map(ledger.filter((line) => line.line === 'call-finished').map((line) => [line.sequence, line]));
  return ledger
    .filter((line) => line.line === 'call-started' && line.role === role)
    .map((line) => ({ provider: line.provider, usage: finished.get(line.sequence)?.usage }));
}
