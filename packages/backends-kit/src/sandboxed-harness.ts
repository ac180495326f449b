import { existsSync, openSync, readSync, closeSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import {
  AGENT_CLI_SANDBOX_LIMITS,
  buildChildEnvironment,
  commandNotFoundError,
  createBubblewrapSandbox,
  findExecutable,
  type ProcessResult,
  type Sandbox,
} from '@skillopt/runtime-kit';
import type { HarnessCommandLine } from './harness-definition.js';
import { withTemporaryWorkspace } from './temporary-workspace.js';

/** What a CLI needs of /etc besides what the sandbox binds: the names of uids (Node's `os.userInfo`, a login shell). Never /etc/shadow. */
const USER_DATABASE_FILES = ['/etc/passwd', '/etc/group'] as const;
// The read-only system every sandboxed run already sees.
const SYSTEM_PREFIX = '/usr/';
const SHEBANG_BYTES = 256;

let shared: Promise<Sandbox> | undefined;

/**
 * The one bubblewrap sandbox of this process for agent CLIs, with limits sized for them. Created on
 * first use (its trial run happens once per process, not per rollout); a machine where it cannot be
 * set up rejects every sandboxed run with the same `sandbox-unavailable` error.
 */
export function sharedAgentCliSandbox(): Promise<Sandbox> {
  shared ??= createBubblewrapSandbox({ limits: AGENT_CLI_SANDBOX_LIMITS });
  return shared;
}

/** What the flow starts every harness with, sandboxed or not. */
export interface HarnessProcessOptions {
  stdin: string;
  timeoutMs: number;
  terminationGraceMs: number;
  abortGraceMs: number;
  maxOutputBytes: number;
  onStdoutLine: (line: string) => void;
  signal?: AbortSignal;
}

/**
 * The harness inside the sandbox, as an unprivileged user: the workspace and its state folders
 * read-write, its install (and Node's, when it is a Node script outside /usr) and the user
 * database read-only, nothing else of the host's files; the network shared, so it reaches its
 * model. The environment is the one the unconfined run gets, with HOME its own state folder or a
 * private empty one, and TMPDIR the sandbox's private /tmp (a host folder would not be there).
 */
export async function startInSandbox(
  sandbox: Sandbox,
  provider: string,
  commandLine: HarnessCommandLine,
  workspace: string,
  options: HarnessProcessOptions,
): Promise<ProcessResult> {
  const environment = buildChildEnvironment(commandLine.allowedEnvironmentVariables ?? ['PATH', 'HOME'], commandLine.environment ?? {});
  const install = locateHarnessInstall(commandLine.command, environment.PATH, provider);
  const statePaths = commandLine.statePaths ?? [];
  for (const installPath of install.readOnlyPaths)
    for (const writable of [workspace, ...statePaths])
      if (isInside(path.resolve(writable), installPath))
        throw new SkillOptError({
          code: ERROR_CODES.configInvalid,
          category: 'user',
          message: `${provider}: the harness's install ${installPath} holds ${writable}, so a sandboxed run would see everything beside it; install the CLI outside the folders its runs work in`,
        });
  const run = (home: string | undefined) =>
    sandbox.run({
      command: install.command,
      args: commandLine.args,
      workDirectory: workspace,
      readWritePaths: home === undefined ? statePaths : [...statePaths, home],
      readOnlyPaths: install.readOnlyPaths,
      environment: { ...environment, TMPDIR: '/tmp', ...(home === undefined ? {} : { HOME: home }) },
      network: 'shared',
      stdin: options.stdin,
      limits: { timeoutMs: options.timeoutMs, outputBytes: options.maxOutputBytes },
      onStdoutLine: options.onStdoutLine,
      terminationGraceMs: options.terminationGraceMs,
      abortGraceMs: options.abortGraceMs,
      signal: options.signal,
    });
  const ownHome = commandLine.environment?.HOME;
  if (ownHome !== undefined && statePaths.some((statePath) => path.resolve(statePath) === path.resolve(ownHome))) return run(undefined);
  return withTemporaryWorkspace('skillopt-harness-home', (home) => run(home));
}

function isInside(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Where a sandboxed harness's command is and what of the host it needs to start. */
interface HarnessInstall {
  /** The command's real path on the host, which the run starts. */
  command: string;
  /** Bound read-only: the CLI's install (its `node_modules` root, or its directory), and the Node interpreter's prefix when the CLI is a Node script outside /usr. */
  readOnlyPaths: string[];
}

/**
 * Finds a harness's command as the unconfined run would (a path, or a name on the PATH it is
 * given) and the host paths it needs inside the sandbox. A command that cannot be found is a
 * non-retryable `process-crashed`, as it is without the sandbox.
 */
function locateHarnessInstall(command: string, searchPath: string | undefined, provider: string): HarnessInstall {
  const found = command.includes('/') ? path.resolve(command) : findExecutable(command, searchPath);
  if (found === undefined || !existsSync(found)) throw commandNotFoundError(command, provider);
  const real = realpathSync(found);
  const readOnlyPaths = [installRoot(real)];
  const interpreter = nodeInterpreterOf(real, searchPath);
  if (interpreter !== undefined) readOnlyPaths.push(path.dirname(path.dirname(interpreter)));
  for (const file of USER_DATABASE_FILES) if (existsSync(file)) readOnlyPaths.push(file);
  return { command: real, readOnlyPaths: [...new Set(readOnlyPaths.filter((entry) => !entry.startsWith(SYSTEM_PREFIX)))] };
}

/** The outermost `node_modules` folder above the file (where an npm install keeps the CLI and its dependencies), else the file's folder. */
function installRoot(file: string): string {
  const parts = file.split(path.sep);
  const index = parts.indexOf('node_modules');
  return index < 0 ? path.dirname(file) : parts.slice(0, index + 1).join(path.sep);
}

/** The real path of the Node that runs `file`, when its shebang names one (`#!/usr/bin/env node`, `#!/opt/node/bin/node`). */
function nodeInterpreterOf(file: string, searchPath: string | undefined): string | undefined {
  const descriptor = openSync(file, 'r');
  const buffer = Buffer.alloc(SHEBANG_BYTES);
  let length: number;
  try {
    length = readSync(descriptor, buffer, 0, SHEBANG_BYTES, 0);
  } finally {
    closeSync(descriptor);
  }
  const firstLine = buffer.subarray(0, length).toString('utf8').split('\n')[0] ?? '';
  if (!firstLine.startsWith('#!')) return undefined;
  const words = firstLine.slice(2).trim().split(/\s+/);
  const program = path.basename(words[0] ?? '') === 'env' ? words.find((word, index) => index > 0 && !word.startsWith('-')) : words[0];
  if (program === undefined || !/^node(js)?$/.test(path.basename(program))) return undefined;
  const located = program.includes('/') ? program : findExecutable(program, searchPath);
  return located === undefined || !existsSync(located) ? undefined : realpathSync(located);
}
