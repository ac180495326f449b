import { Flags } from '@oclif/core';
import { SESSION_SOURCES } from '@skillopt/sleep';

// The flags every Sleep command that harvests sessions takes (`sleep harvest`, `sleep mine`).

export const SOURCE_FLAGS = {
  source: Flags.string({
    char: 's',
    description: `the sources to read, comma-separated or repeated (default: all of ${SESSION_SOURCES.map((source) => source.id).join(', ')})`,
    multiple: true,
  }),
};

export const WINDOW_FLAGS = {
  since: Flags.string({ description: 'read sessions that ended at or after this time (ISO date or time; no zone means UTC)', exclusive: ['lookback'] }),
  lookback: Flags.string({ description: 'read sessions that ended within this long before now: 90m, 72h, 3d, 2w; 0 reads all history' }),
  'max-sessions': Flags.integer({ description: 'stop after this many sessions (each source newest first)', min: 1 }),
  'state-dir': Flags.string({
    description: "Sleep's state folder, where the nights' checkpoints are read from (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)",
  }),
};

/** Flags that point a source somewhere else than its default (a test's temporary home, a second machine's copy). */
export const LOCATION_FLAGS = {
  'claude-home': Flags.string({ description: "Claude Code's config home (default $CLAUDE_CONFIG_DIR, else ~/.claude)", helpGroup: 'SOURCE LOCATION' }),
  'codex-home': Flags.string({ description: "Codex's home (default $CODEX_HOME, else ~/.codex)", helpGroup: 'SOURCE LOCATION' }),
  'copilot-home': Flags.string({ description: "GitHub Copilot CLI's home (default $COPILOT_HOME, else ~/.copilot)", helpGroup: 'SOURCE LOCATION' }),
  'copilot-session-store': Flags.string({
    description: "the Copilot CLI's SQLite session store (default <copilot home>/session-store.db)",
    helpGroup: 'SOURCE LOCATION',
  }),
  'vscode-workspace-storage': Flags.string({
    description: "VS Code's User/workspaceStorage folder (default: stable, Insiders and $VSCODE_PORTABLE's)",
    multiple: true,
    helpGroup: 'SOURCE LOCATION',
  }),
  'cursor-home': Flags.string({ description: "Cursor's home (default ~/.cursor)", helpGroup: 'SOURCE LOCATION' }),
  'pi-home': Flags.string({ description: "Pi's home (default ~/.pi)", helpGroup: 'SOURCE LOCATION' }),
  'opencode-db': Flags.string({
    description: "OpenCode's database (default $OPENCODE_DB, else <data dir>/opencode/opencode.db)",
    helpGroup: 'SOURCE LOCATION',
  }),
  'devin-transcripts': Flags.string({
    description: "the Devin CLI's transcripts folder (default <data dir>/devin/cli/transcripts)",
    helpGroup: 'SOURCE LOCATION',
  }),
};
