import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { findExecutable } from '@skillopt/runtime-kit';

// Codex runs its shell commands in bubblewrap: the `bwrap` on its PATH when there is one, else the
// one it ships. A system bwrap older than 0.9.0 has no `--argv0`, and with it Codex 0.171 fails every
// command before it starts ("bwrap: execvp codex-linux-sandbox: No such file or directory"; Debian
// 12 ships 0.8.0; openai/codex#24341). Then Codex is given its own bwrap first on its PATH.
const FIRST_VERSION_WITH_ARGV0 = [0, 9, 0];

function isOlder(version: readonly number[], than: readonly number[]): boolean {
  for (let index = 0; index < than.length; index += 1) {
    const part = version[index] ?? 0;
    const other = than[index] ?? 0;
    if (part !== other) return part < other;
  }
  return false;
}

function bubblewrapVersion(executable: string): number[] | undefined {
  try {
    const text = execFileSync(executable, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
    const match = /bubblewrap (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
    return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  } catch {
    return undefined;
  }
}

/**
 * The bwrap a Codex install ships (`codex-resources/bwrap` beside its native binary): found from
 * the npm launcher (`@openai/codex/bin/codex.js`, with the platform package `@openai/codex-linux-*`
 * beside it) or from the native binary itself.
 */
export function shippedBubblewrap(codexExecutable: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(codexExecutable);
  } catch {
    return undefined;
  }
  const besideNative = path.join(path.dirname(real), '..', 'codex-resources', 'bwrap');
  if (existsSync(besideNative)) return besideNative;
  const scope = path.resolve(path.dirname(real), '..', '..');
  let packages: string[];
  try {
    packages = readdirSync(scope).filter((name) => name.startsWith('codex-linux-'));
  } catch {
    return undefined;
  }
  for (const platformPackage of packages) {
    const vendor = path.join(scope, platformPackage, 'vendor');
    for (const target of existsSync(vendor) ? readdirSync(vendor) : []) {
      const candidate = path.join(vendor, target, 'codex-resources', 'bwrap');
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

const decided = new Map<string, string | undefined>();

/**
 * The PATH a Codex process should get: `searchPath` with Codex's own bwrap in front when the
 * system one is too old for it, otherwise undefined (the inherited PATH is right as it is).
 */
export function codexSearchPath(command: string, searchPath: string | undefined = process.env.PATH): string | undefined {
  const key = `${command}\0${searchPath ?? ''}`;
  if (decided.has(key)) return decided.get(key);
  let result: string | undefined;
  const system = findExecutable('bwrap', searchPath);
  const version = system === undefined ? undefined : bubblewrapVersion(system);
  if (version !== undefined && isOlder(version, FIRST_VERSION_WITH_ARGV0)) {
    const executable = command.includes(path.sep) ? command : findExecutable(command, searchPath);
    const shipped = executable === undefined ? undefined : shippedBubblewrap(executable);
    if (shipped !== undefined) result = `${path.dirname(shipped)}${path.delimiter}${searchPath ?? ''}`;
  }
  decided.set(key, result);
  return result;
}
