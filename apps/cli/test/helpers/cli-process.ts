import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const cli = path.join(__dirname, '..', '..', 'bin', 'run.js');

export interface CliProcess {
  pid: number;
  /** Resolves when the process has ended: its exit code (null when a signal ended it) and what it printed. */
  ended: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** What it printed on stdout so far, for a process that runs until it is stopped. */
  stdoutSoFar(): string;
  signal(name: NodeJS.Signals): void;
}

const running = new Set<ChildProcess>();

/** A real `skillopt` process (node bin/run.js), as a user starts it, from `workingDirectory`. */
export function startSkillopt(args: string[], workingDirectory: string, environment: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [cli, ...args], { cwd: workingDirectory, env: { ...process.env, NODE_OPTIONS: '', ...environment } });
  running.add(child);
  child.on('close', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    pid: child.pid!,
    ended: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
    stdoutSoFar: () => stdout,
    signal: (name) => child.kill(name),
  };
}

/**
 * A gate for the fixture env's setup (helpers/fixture-project.ts): a run started with its
 * environment reaches setup, says so, and waits there until the gate is opened.
 */
export interface SetupGate {
  environment: NodeJS.ProcessEnv;
  /** The pids of the processes that reached setup so far. */
  reached(): number[];
  /** Waits until `count` processes have reached setup. */
  waitUntilReached(count: number): Promise<number[]>;
  open(): void;
  remove(): void;
}

export function createSetupGate(): SetupGate {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-gate-'));
  const reached = () =>
    readdirSync(directory)
      .filter((name) => name.startsWith('setup-reached-'))
      .map((name) => Number(name.slice('setup-reached-'.length)));
  return {
    environment: { SKILLOPT_FIXTURE_SETUP_GATE: directory },
    reached,
    async waitUntilReached(count) {
      while (reached().length < count) await delay(20);
      return reached();
    },
    open: () => writeFileSync(path.join(directory, 'open'), ''),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** Kills what a test started and did not see end (a failed assertion leaves a run waiting at its gate), so no process outlives its test. */
export function killStartedProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * A command's message on one line: oclif wraps an error or warning to the terminal's width, with
 * or without a `›` margin and colours (as under Nx), so tests compare the words, not the layout.
 */
export function oneLine(text: string): string {
  return text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/›/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
