import os from 'node:os';
import path from 'node:path';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { sessionEndLogFile } from '../session-end/session-end-record.js';

/**
 * Where each agent tool keeps its sessions on this machine. Every one can be given explicitly
 * (a flag, a config key, a test's temporary folder); otherwise it comes from the tool's own
 * environment variable, then its default under the home folder.
 */
export interface SourceLocations {
  /** Claude Code's config home: sessions under `projects/<slug>/*.jsonl`. */
  claudeHome: string;
  /** Codex's home: `sessions/YYYY/MM/DD/*.jsonl` (the CLI) and `archived_sessions/*.jsonl` (the Desktop app). */
  codexHome: string;
  /** GitHub Copilot CLI's home: `session-state/<id>/events.jsonl`. */
  copilotHome: string;
  /** The Copilot CLI's SQLite session store. */
  copilotSessionStore: string;
  /** VS Code's `User/workspaceStorage` folders (stable, Insiders, portable), first existing first. */
  vscodeWorkspaceStorage: string[];
  /** Cursor's home: `projects/<slug>/agent-transcripts/<session>/*.jsonl`. */
  cursorHome: string;
  /** Pi's home: `agent/sessions/**.jsonl`. */
  piHome: string;
  /** OpenCode's SQLite database. */
  opencodeDatabase: string;
  /** Devin CLI's ATIF transcripts folder. */
  devinTranscripts: string;
  /** agentmemory's store (`mem:memories`), which Devin sessions write. */
  agentMemoryFile: string;
  /** Workspaces whose `.devin/skills/*\/SKILL.md` are read; none given: those the Devin app lists. */
  devinWorkspaces: string[];
  /** The Devin app's `User/workspaceStorage` (VS Code's layout): the workspaces it has opened. */
  devinWorkspaceStorage: string;
  /**
   * The log the agents' session-end hooks append to (`<state directory>/session-ends.jsonl`): the
   * transcripts it names are read too, wherever the agent kept them (a session run with another
   * `CLAUDE_CONFIG_DIR` than the harvest's).
   */
  sessionEndLog: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The platform's per-user data folder: `%LOCALAPPDATA%`, `~/Library/Application Support`, `$XDG_DATA_HOME`. */
function userDataFolder(environment: Environment, home: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return nonEmpty(environment.LOCALAPPDATA) ?? path.join(home, 'AppData', 'Local');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return nonEmpty(environment.XDG_DATA_HOME) ?? path.join(home, '.local', 'share');
}

/** The platform's per-user config folder: `%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME`. */
function userConfigFolder(environment: Environment, home: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return nonEmpty(environment.APPDATA) ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return nonEmpty(environment.XDG_CONFIG_HOME) ?? path.join(home, '.config');
}

export function defaultSourceLocations(
  environment: Environment = process.env,
  home: string = nonEmpty(environment.HOME) ?? os.homedir(),
  platform: NodeJS.Platform = process.platform,
): SourceLocations {
  const data = userDataFolder(environment, home, platform);
  const config = userConfigFolder(environment, home, platform);
  const copilotHome = nonEmpty(environment.COPILOT_HOME) ?? path.join(home, '.copilot');
  const opencodeData = path.join(data, 'opencode');
  const opencodeVariable = nonEmpty(environment.OPENCODE_DB);
  const vscode = [
    ...(nonEmpty(environment.VSCODE_PORTABLE) ? [path.join(environment.VSCODE_PORTABLE as string, 'user-data', 'User', 'workspaceStorage')] : []),
    path.join(config, 'Code', 'User', 'workspaceStorage'),
    path.join(config, 'Code - Insiders', 'User', 'workspaceStorage'),
  ];
  const devinWorkspaces = (nonEmpty(environment.SKILLOPT_DEVIN_WORKSPACES) ?? '').split(path.delimiter).filter((folder) => folder.trim() !== '');
  return {
    claudeHome: nonEmpty(environment.CLAUDE_CONFIG_DIR) ?? path.join(home, '.claude'),
    codexHome: nonEmpty(environment.CODEX_HOME) ?? path.join(home, '.codex'),
    copilotHome,
    copilotSessionStore: path.join(copilotHome, 'session-store.db'),
    vscodeWorkspaceStorage: vscode,
    cursorHome: path.join(home, '.cursor'),
    piHome: path.join(home, '.pi'),
    opencodeDatabase: opencodeVariable === undefined ? path.join(opencodeData, 'opencode.db') : path.resolve(opencodeData, opencodeVariable),
    devinTranscripts: path.join(data, 'devin', 'cli', 'transcripts'),
    agentMemoryFile: path.join(home, '.agentmemory', 'standalone.json'),
    devinWorkspaces,
    devinWorkspaceStorage: path.join(config, 'Devin', 'User', 'workspaceStorage'),
    sessionEndLog: sessionEndLogFile(defaultStateDirectory({ SKILLOPT_SLEEP_HOME: environment.SKILLOPT_SLEEP_HOME, HOME: home })),
  };
}
