// The agent CLIs a document installs globally (`npm install -g @anthropic-ai/claude-code@…`), and
// where the example runner finds them instead: the cache tools/agent-clis/install.mjs fills. The
// examples have no registry, and a global install would change the machine, so npm-install.mjs
// links the cached, pinned binary into the document's own bin folder on PATH.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const agentClisDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'agent-clis');
const manifest = JSON.parse(readFileSync(path.join(agentClisDirectory, 'manifest.json'), 'utf8'));
export const AGENT_CLI_INSTALL_COMMAND = 'node tools/agent-clis/install.mjs';

/** `npm install -g` / `npm i --global` …: the package arguments of a global install, or none. */
export function globalInstallPackages(command) {
  const words = command
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/);
  if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1])) return [];
  const rest = words.slice(2);
  if (!rest.includes('-g') && !rest.includes('--global')) return [];
  return rest.filter((word) => !word.startsWith('-'));
}

/** `@scope/name@1.2.3` → `{ name: '@scope/name', version: '1.2.3' }`; no version → `version: undefined`. */
export function parsePackageArgument(argument) {
  const at = argument.lastIndexOf('@');
  return at > 0 ? { name: argument.slice(0, at), version: argument.slice(at + 1) } : { name: argument, version: undefined };
}

/**
 * Every CLI of tools/agent-clis/manifest.json by its npm package: its pinned version, bin name and,
 * when the cache holds that version, the absolute path of the cached binary (else `problem`).
 */
export function agentCliInstalls(environment = process.env) {
  const workspaceRoot = path.resolve(agentClisDirectory, '..', '..');
  const configured = environment[manifest.cacheDirectoryVariable];
  const cacheDirectory = path.resolve(configured ? configured : path.join(workspaceRoot, manifest.defaultCacheDirectory));
  let record = { clis: {} };
  try {
    record = JSON.parse(readFileSync(path.join(cacheDirectory, manifest.recordFile), 'utf8'));
  } catch {
    // No record: nothing is installed, and every CLI below says so.
  }
  const installs = {};
  for (const cli of manifest.clis) {
    const entry = record.clis[cli.id];
    const binary = entry && path.resolve(cacheDirectory, entry.binary);
    const present = entry?.version === cli.version && existsSync(binary);
    installs[cli.package] = {
      version: cli.version,
      bin: cli.bin,
      ...(present
        ? { binary }
        : { problem: `${cli.package}@${cli.version} is not in the agent-CLI cache ${cacheDirectory}: install it with \`${AGENT_CLI_INSTALL_COMMAND}\`` }),
    };
  }
  return installs;
}
