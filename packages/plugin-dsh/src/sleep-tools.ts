import { SLEEP_ACTIONS, type SleepAction, type SleepActionName } from '@skillopt/sleep/commands';
import type { ValueKind } from './argument-checks.js';
import type { PluginConfig } from './plugin-config.js';

/** One option of the action a tool lets the model give; a string option says what its value may be. */
interface DeclaredOption {
  /** The option as `skillopt-sleep` spells it, without the dashes: `max-tasks`. */
  option: string;
  value?: ValueKind;
}

/** A tool: the `skillopt-sleep` action it runs and the options it lets the model give. Nothing else reaches the command. */
export interface SleepTool {
  name: string;
  action: SleepActionName;
  description: string;
  options: readonly DeclaredOption[];
  /** Options of which one call may give at most one: Sleep's own groups for the action, and the tool's. */
  exclusive: readonly (readonly string[])[];
  /** Words the operator's config adds to every call, after the model's options. */
  operatorWords?: readonly string[];
}

const path = { kind: 'path' } as const;
const name = { kind: 'name' } as const;
const time = { kind: 'time' } as const;
const backend = { kind: 'backend' } as const;
const count = { kind: 'integer', from: 0 } as const;

/** The options of a night's model and window, shared by `skillopt_run` and `skillopt_schedule`. */
const NIGHT_OPTIONS: readonly DeclaredOption[] = [
  { option: 'backend', value: backend },
  { option: 'model', value: name },
  { option: 'source', value: name },
  { option: 'max-sessions', value: count },
  { option: 'max-tasks', value: count },
  { option: 'edit-budget', value: count },
  { option: 'skill', value: path },
];

/** A tool as written below: Sleep's exclusive groups are added from the action, `alsoExclusive` holds the tool's own. */
type SleepToolDefinition = Omit<SleepTool, 'exclusive'> & { alsoExclusive?: readonly (readonly string[])[] };

/**
 * Sleep's groups of mutually exclusive options for the action, narrowed to the options the tool
 * declares, so a conflict the command would refuse is refused by the tool, in its own words, first.
 */
function sleepExclusiveGroups(action: SleepActionName, options: readonly DeclaredOption[]): string[][] {
  const declared = new Set(options.map((option) => option.option));
  const actions: readonly SleepAction[] = SLEEP_ACTIONS;
  const sleepAction = actions.find((candidate) => candidate.name === action);
  return (sleepAction?.exclusive ?? []).map((group) => group.filter((option) => declared.has(option))).filter((group) => group.length > 1);
}

function withExclusiveGroups({ alsoExclusive, ...tool }: SleepToolDefinition): SleepTool {
  return { ...tool, exclusive: [...sleepExclusiveGroups(tool.action, tool.options), ...(alsoExclusive ?? [])] };
}

/** The seven tools, given the operator's config: it alone decides `--auto-adopt` and whether `all` may be asked for. */
export function sleepTools(config: PluginConfig): SleepTool[] {
  const autoAdopt = config.autoAdopt ? ['--auto-adopt'] : [];
  const definitions: SleepToolDefinition[] = [
    {
      name: 'skillopt_status',
      action: 'status',
      description:
        "SkillOpt-Sleep's state for a project: its nights, checkpoints, the sessions ended since the last night, and the proposals staged for review. Reads only.",
      options: [{ option: 'project', value: path }],
    },
    {
      name: 'skillopt_dry_run',
      action: 'dry-run',
      description:
        'Run one whole SkillOpt-Sleep night on a reviewed task file or a shipped example persona (researcher or programmer) and report what it would learn. Stages nothing and changes no skill.',
      options: [
        { option: 'tasks', value: path },
        { option: 'persona', value: name },
        { option: 'skill', value: path },
        { option: 'backend', value: backend },
        { option: 'model', value: name },
        { option: 'out', value: path },
      ],
    },
    {
      name: 'skillopt_run',
      action: 'run',
      description:
        'Run one SkillOpt-Sleep night for a project: its sessions since the last night (or a reviewed task file) replayed, rules proposed for its skills and kept only if held-out tasks score better, and the result staged for review. No skill changes until skillopt_adopt, unless the operator turned on automatic adoption.',
      options: [
        { option: 'project', value: path },
        ...NIGHT_OPTIONS,
        { option: 'since', value: time },
        { option: 'lookback', value: time },
        { option: 'tasks', value: path },
        { option: 'persona', value: name },
      ],
      operatorWords: autoAdopt,
    },
    {
      name: 'skillopt_adopt',
      action: 'adopt',
      description:
        "Write a staged SkillOpt-Sleep proposal into the live skill document, as one transaction, or undo the last adoption. Choose at most one of: staging (one proposal's folder), skills (the newest proposal of each named skill), all_skills (every skill's newest waiting proposal), undo. With none, the newest proposal is adopted when only one skill has one waiting.",
      options: [
        { option: 'project', value: path },
        { option: 'staging', value: path },
        { option: 'skill', value: name },
        { option: 'all-skills' },
        { option: 'undo' },
      ],
      // Sleep refuses two of staging, skill and all-skills; undo with any of them is the tool's own rule.
      alsoExclusive: [['staging', 'skill', 'all-skills', 'undo']],
    },
    {
      name: 'skillopt_harvest',
      action: 'harvest',
      description: "Read the developer's own coding-agent sessions and say, per source, what a SkillOpt-Sleep night would learn from. Reads only.",
      options: [
        { option: 'project', value: path },
        { option: 'all-projects' },
        { option: 'source', value: name },
        { option: 'since', value: time },
        { option: 'lookback', value: time },
        { option: 'max-sessions', value: count },
      ],
    },
    {
      name: 'skillopt_schedule',
      action: 'schedule',
      description:
        "Run a project's SkillOpt-Sleep night every day at a local time: a line in the user's crontab, or with systemd a user timer. Each night reads the sessions since the last one.",
      options: [
        { option: 'project', value: path },
        { option: 'hour', value: { kind: 'integer', from: 0, to: 23 } },
        { option: 'minute', value: { kind: 'integer', from: 0, to: 59 } },
        ...NIGHT_OPTIONS,
        { option: 'env-file', value: path },
        { option: 'systemd' },
      ],
      operatorWords: autoAdopt,
    },
    {
      name: 'skillopt_unschedule',
      action: 'unschedule',
      description: config.unscheduleAll
        ? "Remove a project's scheduled SkillOpt-Sleep night (with all, every project's)."
        : "Remove a project's scheduled SkillOpt-Sleep night.",
      options: [{ option: 'project', value: path }, { option: 'systemd' }, ...(config.unscheduleAll ? [{ option: 'all' }] : [])],
    },
  ];
  return definitions.map(withExclusiveGroups);
}
