import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import manifest from '../../manifest.json';

/** The command that fills the cache; tests name it and never run it. */
export const INSTALL_COMMAND = 'node tools/agent-clis/install.mjs';

export type AgentCliId = 'claude' | 'codex' | 'copilot' | 'opencode' | 'pi';

export interface LocatedAgentCli {
  id: AgentCliId;
  version: string;
  /** Absolute path of the installed bin. */
  binary: string;
  /** The home the installer ran `--version` in; Copilot's unpacked package is under its `.cache`. */
  cacheHome: string;
  /** The CLI's offline and telemetry-off settings (upstream-backends.md Part 2), from the manifest. */
  offlineEnvironment: Readonly<Record<string, string>>;
  offlineArguments: readonly string[];
}

export type AgentCliLocation = { found: true; cli: LocatedAgentCli } | { found: false; problem: string };

interface InstallRecord {
  home: string;
  clis: Record<string, { version: string; binary: string } | undefined>;
}

const workspaceRoot = path.resolve(__dirname, '..', '..', '..', '..');

export function agentCliCacheDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment[manifest.cacheDirectoryVariable];
  return path.resolve(configured === undefined || configured === '' ? path.join(workspaceRoot, manifest.defaultCacheDirectory) : configured);
}

/** Finds a pinned CLI in the cache the installer filled. Never installs. */
export function locateAgentCli(id: AgentCliId, environment: NodeJS.ProcessEnv = process.env): AgentCliLocation {
  const pinned = manifest.clis.find((cli) => cli.id === id);
  if (pinned === undefined) return { found: false, problem: `${id} is not an agent CLI of tools/agent-clis/manifest.json` };
  const cacheDirectory = agentCliCacheDirectory(environment);
  const install = `install the pinned CLIs with \`${INSTALL_COMMAND}\``;
  const recordFile = path.join(cacheDirectory, manifest.recordFile);
  let record: InstallRecord;
  try {
    record = JSON.parse(readFileSync(recordFile, 'utf8')) as InstallRecord;
  } catch {
    return { found: false, problem: `no agent CLI is installed in ${cacheDirectory} (no ${manifest.recordFile}): ${install}` };
  }
  const entry = record.clis[id];
  if (entry === undefined) return { found: false, problem: `${id} is not installed in ${cacheDirectory}: ${install}` };
  if (entry.version !== pinned.version)
    return { found: false, problem: `${cacheDirectory} holds ${id} ${entry.version}, the manifest pins ${pinned.version}: ${install}` };
  const binary = path.resolve(cacheDirectory, entry.binary);
  if (!existsSync(binary)) return { found: false, problem: `${id}'s recorded binary ${binary} is missing: ${install}` };
  return {
    found: true,
    cli: {
      id,
      version: pinned.version,
      binary,
      cacheHome: path.resolve(cacheDirectory, record.home),
      offlineEnvironment: pinned.offlineEnvironment,
      offlineArguments: pinned.offlineArguments,
    },
  };
}

/** What a test does when its CLI is missing: under CI it fails (a skipped CLI test would hide a broken install), elsewhere it is skipped. */
export function missingAgentCliOutcome(environment: NodeJS.ProcessEnv = process.env): 'fail' | 'skip' {
  const ci = environment.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'fail' : 'skip';
}

/** A test that runs with the located CLI; when it is missing, fails under CI and is skipped elsewhere, its name saying how to install it. */
export function testWithAgentCli(id: AgentCliId, name: string, body: (cli: LocatedAgentCli) => Promise<void>, timeoutMs?: number): void {
  const location = locateAgentCli(id);
  if (location.found) test(name, () => body(location.cli), timeoutMs);
  else if (missingAgentCliOutcome() === 'fail')
    test(name, () => {
      throw new Error(`${location.problem} (under CI a missing agent CLI fails its test)`);
    });
  else test.skip(`${name} [skipped: ${location.problem}]`, () => undefined);
}
