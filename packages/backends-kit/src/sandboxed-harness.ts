import { existsSync, openSync, readSync, closeSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { AGENT_CLI_SANDBOX_LIMITS, createBubblewrapSandbox, findExecutable, type Sandbox } from '@skillopt/runtime-kit';

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
export function locateHarnessInstall(command: string, searchPath: string | undefined, provider: string): HarnessInstall {
  const found = command.includes('/') ? path.resolve(command) : findExecutable(command, searchPath);
  if (found === undefined || !existsSync(found))
    throw new ProviderError({
      code: ERROR_CODES.processCrashed,
      provider,
      retryable: false,
      message: `could not start "${command}": the command was not found (is it installed, and on the PATH the process is given?)`,
      details: { command },
    });
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
