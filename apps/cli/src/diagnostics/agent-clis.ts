import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The agent CLIs skillopt's harness targets drive, by the npm package that ships each. The
 * repository's tools/agent-clis/manifest.json pins the versions its tests run; a test keeps the
 * two lists equal.
 */
export const AGENT_CLIS = [
  { id: 'claude', bin: 'claude', packageName: '@anthropic-ai/claude-code' },
  { id: 'codex', bin: 'codex', packageName: '@openai/codex' },
  { id: 'copilot', bin: 'copilot', packageName: '@github/copilot' },
  { id: 'opencode', bin: 'opencode', packageName: 'opencode-ai' },
  { id: 'pi', bin: 'pi', packageName: '@mariozechner/pi-coding-agent' },
] as const;

/** The variable naming the agent CLI cache that tools/agent-clis/install.mjs fills (with its record, installed.json). */
export const AGENT_CLI_CACHE_VARIABLE = 'SKILLOPT_AGENT_CLIS_DIR';
const CACHE_RECORD_FILE = 'installed.json';

// A `--version` that has not answered by then is reported as such, not waited for.
const VERSION_TIMEOUT_MS = 10_000;
// Each CLI's own switch against background traffic, so asking its version reaches no server.
const QUIET_ENVIRONMENT = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  COPILOT_OFFLINE: 'true',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  PI_OFFLINE: '1',
};

export interface AgentCliFinding {
  id: string;
  found: boolean;
  path?: string;
  version?: string;
  /** Why the version is unknown, when the CLI is there but did not say. */
  problem?: string;
}

interface AgentCliCache {
  directory: string;
  clis: AgentCliFinding[];
  /** Why the cache could not be read. */
  problem?: string;
}

export interface AgentCliReport {
  onPath: AgentCliFinding[];
  /** Only when SKILLOPT_AGENT_CLIS_DIR names a folder. */
  cache?: AgentCliCache;
}

function executableOnPath(bin: string, searchPath: string): string | undefined {
  for (const directory of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, bin);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** The version in the package.json of the npm package the binary belongs to, when it is one. */
function packageVersionOf(binary: string, packageName: string): string | undefined {
  let directory: string;
  try {
    directory = path.dirname(realpathSync(binary));
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 4; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === packageName && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here
    }
    directory = path.dirname(directory);
  }
  return undefined;
}

/** Asks the binary itself (a native install has no package.json): the first x.y.z it prints. */
function askVersion(binary: string): Promise<{ version?: string; problem?: string }> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['--version'],
      { timeout: VERSION_TIMEOUT_MS, killSignal: 'SIGKILL', env: { ...process.env, ...QUIET_ENVIRONMENT }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const version = /\d+\.\d+\.\d+[\w.-]*/.exec(`${stdout}\n${stderr}`)?.[0];
        if (version !== undefined) resolve({ version });
        else if (error)
          resolve({
            problem: `\`${path.basename(binary)} --version\` failed: ${error.killed ? `no answer in ${VERSION_TIMEOUT_MS / 1000} s` : error.message}`,
          });
        else resolve({ problem: `\`${path.basename(binary)} --version\` printed no version` });
      },
    );
  });
}

async function onPath(cli: (typeof AGENT_CLIS)[number], searchPath: string): Promise<AgentCliFinding> {
  const binary = executableOnPath(cli.bin, searchPath);
  if (binary === undefined) return { id: cli.id, found: false };
  const version = packageVersionOf(binary, cli.packageName);
  return { id: cli.id, found: true, path: binary, ...(version === undefined ? await askVersion(binary) : { version }) };
}

/** What the installer's record says, each binary checked to be there; nothing is run. */
function inCache(directory: string): AgentCliCache {
  let record: { clis?: Record<string, { version?: unknown; binary?: unknown } | undefined> };
  try {
    record = JSON.parse(readFileSync(path.join(directory, CACHE_RECORD_FILE), 'utf8'));
  } catch {
    return { directory, clis: [], problem: `no ${CACHE_RECORD_FILE} in it: fill it with \`node tools/agent-clis/install.mjs\` in a checkout of skillopt` };
  }
  const clis = AGENT_CLIS.map((cli): AgentCliFinding => {
    const entry = record.clis?.[cli.id];
    if (typeof entry?.binary !== 'string' || typeof entry.version !== 'string') return { id: cli.id, found: false };
    const binary = path.resolve(directory, entry.binary);
    try {
      accessSync(binary, constants.X_OK);
    } catch {
      return { id: cli.id, found: false, path: binary, problem: 'recorded, but the binary is missing' };
    }
    return { id: cli.id, found: true, path: binary, version: entry.version };
  });
  return { directory, clis };
}

/** Which agent CLIs are on PATH and, when SKILLOPT_AGENT_CLIS_DIR names a folder, in that cache. None being there is no problem. */
export async function findAgentClis(environment: NodeJS.ProcessEnv = process.env): Promise<AgentCliReport> {
  const found = await Promise.all(AGENT_CLIS.map((cli) => onPath(cli, environment.PATH ?? '')));
  const cacheDirectory = environment[AGENT_CLI_CACHE_VARIABLE];
  return { onPath: found, ...(cacheDirectory ? { cache: inCache(path.resolve(cacheDirectory)) } : {}) };
}
