import { SINGLE_LOCATION_OPTIONS } from './location-options.js';

/**
 * The one definition of what `skillopt-sleep` accepts: its actions and each action's options. The
 * command line parses with it, the plugins' command and skill files are generated and checked
 * against it, and an MCP server can build its tool schemas from it — so no plugin can name an
 * action or a flag the engine does not have.
 */

/** The miners `--miner` names. */
export const MINER_NAMES = ['heuristic', 'llm'] as const;

/** The shipped example developers `--persona` names (their task files are in the package's examples/personas). */
export const PERSONA_NAMES = ['researcher', 'programmer'] as const;

/**
 * What a string option's value is, beyond text, for a front end that types its arguments before
 * it runs the command (the MCP server's tool schemas); the command line reads the text as it
 * always has, and says the same when a value is wrong.
 * - `integer`: a whole number from `minimum` (to `maximum`, when there is one);
 * - `fraction`: a number from 0 up to, not including, 1;
 * - `choice`: one of `choices`;
 * - `source`: the id of a session source (`claude-code`, `devin`, …: SESSION_SOURCES);
 * - `backend`: a backend's short name (`sim`, `openai`, …), a package name or a path.
 */
export type SleepOptionValue =
  | { kind: 'integer'; minimum: number; maximum?: number }
  | { kind: 'fraction' }
  | { kind: 'choice'; choices: readonly string[] }
  | { kind: 'source' }
  | { kind: 'backend' };

export interface SleepOption {
  type: 'string' | 'boolean';
  /** May be given more than once; the values are kept in order. */
  multiple?: boolean;
  short?: string;
  /** What the option does, in a line a plugin's documentation can show. */
  description: string;
  /** What the value is when it is not free text (a path, a time, a span); absent: text. */
  value?: SleepOptionValue;
  /** For an option given more than once: the name of the list of its values where one name holds them all (`skills` for `--skill`). */
  plural?: string;
}

export type SleepOptions = Readonly<Record<string, SleepOption>>;

const LOCATION_DESCRIPTIONS: Record<(typeof SINGLE_LOCATION_OPTIONS)[number], string> = {
  'claude-home': "Claude Code's config folder, if not $CLAUDE_CONFIG_DIR or ~/.claude",
  'codex-home': "Codex's home, if not $CODEX_HOME or ~/.codex",
  'copilot-home': "the GitHub Copilot CLI's home, if not $COPILOT_HOME or ~/.copilot",
  'copilot-session-store': "the Copilot CLI's session-store.db, if not under its home",
  'cursor-home': "Cursor's home, if not ~/.cursor",
  'pi-home': "Pi's home, if not ~/.pi",
  'opencode-db': "OpenCode's database, if not $OPENCODE_DB or its default",
  'devin-transcripts': "the Devin CLI's transcripts folder, if not its default",
};

/** The options `harvest`, `mine` and `run` share: which sources, which window, where the sources and the state live. */
const HARVEST_OPTIONS: SleepOptions = {
  source: {
    type: 'string',
    multiple: true,
    short: 's',
    description: 'the sources to read, comma-separated or repeated (default: all)',
    value: { kind: 'source' },
    plural: 'sources',
  },
  since: { type: 'string', description: 'sessions that ended at or after this time (ISO date or time)' },
  lookback: { type: 'string', description: 'sessions that ended within this long before now: 90m, 72h, 3d, 2w; 0 reads all history' },
  'max-sessions': { type: 'string', description: 'the most sessions to read', value: { kind: 'integer', minimum: 1 } },
  'state-dir': { type: 'string', description: "Sleep's state folder (default $SKILLOPT_SLEEP_HOME or ~/.skillopt-sleep)" },
  json: { type: 'boolean', description: 'print JSON Lines ending with one {"type":"result"} line' },
  help: { type: 'boolean', short: 'h', description: 'print the usage' },
  'vscode-workspace-storage': { type: 'string', multiple: true, description: "VS Code's User/workspaceStorage folders, if not the defaults" },
  ...Object.fromEntries(SINGLE_LOCATION_OPTIONS.map((name) => [name, { type: 'string', description: LOCATION_DESCRIPTIONS[name] } satisfies SleepOption])),
};

/** The options of the night's model: one backend for both roles, or a config file and single values. */
const MODEL_OPTIONS: SleepOptions = {
  backend: { type: 'string', description: 'one backend for the target and the optimizer (default sim, the simulated model)', value: { kind: 'backend' } },
  model: { type: 'string', description: "the backend's model for both roles" },
  config: { type: 'string', description: 'a SkillOpt config file (backends, gate, budget) over the night defaults' },
  set: { type: 'string', multiple: true, description: 'one config value, key=value, e.g. budget.total.max_calls=200' },
};

/** The options `mine` and `run` share: the project, the miner and its model, how many tasks and how they are split. */
const MINE_OPTIONS: SleepOptions = {
  ...HARVEST_OPTIONS,
  ...MODEL_OPTIONS,
  project: { type: 'string', short: 'p', description: 'the project folder (default: the current folder)' },
  miner: {
    type: 'string',
    description: 'llm (the optimizer model writes references and checks) or heuristic (no model)',
    value: { kind: 'choice', choices: MINER_NAMES },
  },
  'max-tasks': { type: 'string', description: 'the most tasks mined', value: { kind: 'integer', minimum: 1 } },
  'val-fraction': { type: 'string', description: 'the share of tasks held out to validate the edits (default 0.34)', value: { kind: 'fraction' } },
  'test-fraction': { type: 'string', description: 'the share held out as a test that is only reported (default 0)', value: { kind: 'fraction' } },
};

/** The options of `run`: the miner's, and the night's own. */
const RUN_OPTIONS: SleepOptions = {
  ...MINE_OPTIONS,
  skill: { type: 'string', description: 'the skill document whose learned block the night trains' },
  tasks: { type: 'string', description: 'a reviewed task file of the project, replayed instead of a harvest' },
  persona: {
    type: 'string',
    description: "a shipped example developer's tasks (researcher or programmer)",
    value: { kind: 'choice', choices: PERSONA_NAMES },
  },
  'edit-budget': { type: 'string', description: 'the most rules one night may add, change or remove', value: { kind: 'integer', minimum: 1 } },
  'staging-in-project': { type: 'boolean', description: 'stage in <project>/.skillopt-sleep/staging instead of the state folder' },
  'auto-adopt': { type: 'boolean', description: 'adopt what the night stages at once (undo with adopt --undo)' },
  'skill-root': { type: 'string', multiple: true, description: 'another folder of <name>/SKILL.md skills a task may train', plural: 'skill_roots' },
  recall: { type: 'string', description: "add the n earlier tasks most like tonight's to each skill's training", value: { kind: 'integer', minimum: 0 } },
};

const PROJECT_OPTION: SleepOptions = { project: { type: 'string', short: 'p', description: 'the project folder (default: the current folder)' } };
const OUTPUT_OPTIONS: SleepOptions = {
  json: { type: 'boolean', description: 'print one {"type":"result"} JSON line' },
  help: { type: 'boolean', short: 'h', description: 'print the usage' },
};
const STATE_OPTION: SleepOptions = { 'state-dir': HARVEST_OPTIONS['state-dir'] as SleepOption };

// A schedule keeps run's options but the window: each scheduled night reads from where the last one stopped.
const { since: _since, lookback: _lookback, ...SCHEDULED_RUN_OPTIONS } = RUN_OPTIONS;

export interface SleepAction {
  name: string;
  /** What the action does, in one line. */
  summary: string;
  options: SleepOptions;
  /** Groups of options of which at most one may be given (the command refuses more, with the same words). */
  exclusive?: readonly (readonly string[])[];
}

/** The actions of `skillopt-sleep`, in the order its usage lists them. `skillopt sleep …` in the CLI has the same ones. */
export const SLEEP_ACTIONS = [
  {
    name: 'harvest',
    summary: 'read your own coding-agent sessions and say, per source, what a night would learn from',
    options: {
      ...HARVEST_OPTIONS,
      project: { type: 'string', multiple: true, short: 'p', description: 'a project folder whose sessions to read (repeatable)', plural: 'projects' },
      'all-projects': { type: 'boolean', description: 'read the sessions of every project' },
    },
    exclusive: [
      ['since', 'lookback'],
      ['project', 'all-projects'],
    ],
  },
  {
    name: 'mine',
    summary: "turn one project's sessions into a task file for you to review, then pass to dry-run",
    options: { ...MINE_OPTIONS, out: { type: 'string', description: 'the task file to write' } },
    exclusive: [['since', 'lookback']],
  },
  {
    name: 'dry-run',
    summary: 'run one whole night on a task file and print its report; stages nothing',
    options: {
      tasks: { type: 'string', description: "the night's task file" },
      skill: { type: 'string', description: 'the skill document whose learned block the night trains (read, never written)' },
      persona: { type: 'string', description: 'a shipped example instead: researcher or programmer', value: { kind: 'choice', choices: PERSONA_NAMES } },
      ...MODEL_OPTIONS,
      out: { type: 'string', description: "where the night's files go" },
      ...OUTPUT_OPTIONS,
    },
    exclusive: [
      ['persona', 'tasks'],
      ['persona', 'skill'],
    ],
  },
  {
    name: 'run',
    summary: 'one night for a project: its new sessions (or a reviewed task file) to a proposal staged for review',
    options: RUN_OPTIONS,
    exclusive: [
      ['since', 'lookback'],
      ['persona', 'tasks'],
    ],
  },
  { name: 'status', summary: "the project's nights, checkpoints and staged proposals", options: { ...PROJECT_OPTION, ...STATE_OPTION, ...OUTPUT_OPTIONS } },
  {
    name: 'adopt',
    summary: 'write a staged proposal into the live skill document, as one transaction; --undo puts it back',
    options: {
      ...PROJECT_OPTION,
      staging: { type: 'string', description: 'the staged proposal to adopt (default: the newest of each skill, when only one waits)' },
      skill: { type: 'string', multiple: true, description: 'the skill whose newest proposal to adopt (repeatable)', plural: 'skills' },
      'all-skills': { type: 'boolean', description: "every skill's newest waiting proposal" },
      undo: { type: 'boolean', description: 'put back what the last adoption replaced' },
      ...STATE_OPTION,
      ...OUTPUT_OPTIONS,
    },
    exclusive: [['staging', 'skill', 'all-skills']],
  },
  {
    name: 'schedule',
    summary: "run a project's night every day: a line in your crontab, or with --systemd a user timer",
    options: {
      ...SCHEDULED_RUN_OPTIONS,
      hour: { type: 'string', description: 'the local hour of the night, 0-23 (default 3)', value: { kind: 'integer', minimum: 0, maximum: 23 } },
      minute: { type: 'string', description: 'the minute, 0-59 (default 17)', value: { kind: 'integer', minimum: 0, maximum: 59 } },
      'env-file': { type: 'string', description: 'the NAME=value file the night reads API keys from' },
      systemd: { type: 'boolean', description: 'a systemd user service and timer instead of a crontab line' },
    },
    exclusive: [['persona', 'tasks']],
  },
  {
    name: 'unschedule',
    summary: "remove what schedule added: the project's crontab line (--all: every project's) or its unit files",
    options: {
      ...PROJECT_OPTION,
      all: { type: 'boolean', description: "every project's scheduled night" },
      systemd: { type: 'boolean', description: 'remove the systemd units instead of the crontab line' },
      ...OUTPUT_OPTIONS,
    },
    exclusive: [['project', 'all']],
  },
] as const satisfies readonly SleepAction[];

export type SleepActionName = (typeof SLEEP_ACTIONS)[number]['name'];

/** The names of the actions, in usage order. */
export const SLEEP_ACTION_NAMES: readonly SleepActionName[] = SLEEP_ACTIONS.map((action) => action.name);

/** One action's options. */
export function sleepActionOptions(name: SleepActionName): SleepOptions {
  return (SLEEP_ACTIONS.find((action) => action.name === name) as SleepAction).options;
}
