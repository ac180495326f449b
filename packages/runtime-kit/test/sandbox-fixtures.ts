import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's python3, what SpreadsheetBench's generated code runs with. */
export const PYTHON = '/usr/bin/python3';

export interface SandboxCase {
  /** The case's own folder: `work/` and, beside it, the answer the code must not see. */
  root: string;
  workDirectory: string;
  answerPath: string;
  remove(): void;
}

/** A case laid out as an env lays one out: the input in the work directory, the answer next to it. */
export function createSandboxCase(): SandboxCase {
  const root = mkdtempSync(path.join(tmpdir(), 'sandbox-case-'));
  const workDirectory = path.join(root, 'work');
  mkdirSync(workDirectory);
  writeFileSync(path.join(workDirectory, 'input.xlsx'), 'the input workbook');
  const answerPath = path.join(root, 'answer.xlsx');
  writeFileSync(answerPath, 'the gold workbook');
  return { root, workDirectory, answerPath, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The pids of the host's processes whose real uid is `userId`. */
export function processesOfUser(userId: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const realUserId = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      // A zombie runs nothing any more: it only waits to be reaped.
      if (realUserId === String(userId) && state !== 'Z') pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Polls until no process of `userId` runs (a SIGKILL is delivered at once, the process table catches up shortly after), then returns what is left. */
export async function remainingProcessesOfUser(userId: number): Promise<number[]> {
  for (let tries = 0; tries < 100 && processesOfUser(userId).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  return processesOfUser(userId);
}
