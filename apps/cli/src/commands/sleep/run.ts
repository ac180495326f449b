import { Flags } from '@oclif/core';
import {
  adoptionSummary,
  DEFAULT_EDIT_BUDGET,
  DEFAULT_MINED_TASKS,
  minerFlag,
  PERSONAS,
  projectNightExitCode,
  rethrowAsAnswersPendingStop,
  runProjectNight,
  sourceLocationsOf,
  splitFractionFlags,
} from '@skillopt/sleep';
import { writeLine, writeWarning } from '../../inspection/write-output.js';
import { EXIT_CODES } from '../../base-command.js';
import { LOCATION_FLAGS, SOURCE_FLAGS, WINDOW_FLAGS } from '../../sleep/harvest-flags.js';
import { MODEL_FLAGS } from '../../sleep/model-flags.js';
import { sleepConfigRequest } from '../../sleep/sleep-config-request.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepRun extends StreamingCommand {
  static override summary = 'Run one Sleep night for a project: its new sessions to a proposal staged for your review; the live skill is not touched.';
  static override description = [
    "One night of SkillOpt-Sleep for one project. It reads the project's sessions since its last completed night (the same sources, window and flags as `sleep harvest`; the last 72 hours the first time), has the config's optimizer model mine them into tasks with references, rubrics or rule checks (--miner llm, the default; the simulated model unless you name another), replays the tasks with the skill document's learned rules, and lets the validation gate decide on the optimizer's edits, as `sleep dry-run` does. With --tasks it replays a reviewed task file of this project instead and reads no session.",
    "When the gate accepts, the new document is staged for review with the hash of the file it would replace; the live document is not written (`sleep adopt` does that, and `sleep adopt --undo` reverts it). Staged proposals, the night's replays, ledger and report live under the project's folder of Sleep's state directory (~/.skillopt-sleep), outside the project, because they hold your prompts; --staging-in-project keeps the proposal in <project>/.skillopt-sleep/staging with a .gitignore.",
    'One night runs per project at a time: a second is refused, naming the one running. Only a night that reached a decision on its own harvest moves the checkpoints. Budgets stop a night before its next call (budget.total.max_calls, max_tokens, max_usd, max_wall_seconds, and the same per role): it then stages nothing, moves no checkpoint and exits 1 with what was spent; the next night starts over. Exit 1 also when the tasks cannot validate an edit (no judgeable, training or validation tasks, or held-out tasks that are also training tasks).',
    "With the handoff backend (--backend handoff, its package installed beside) a night whose model requests wait for answers stops with exit code 3, stages nothing, moves no checkpoint and names the folder they wait in, handoff/ in the project's folder of Sleep's state directory (its index.json lists them): answer each one, then run the same command again. That starts the night over, and the answers written are reused, so each run gets further until the night finishes.",
  ].join('\n\n');
  static override examples = [
    { description: "Tonight's night for this project: its new sessions, on the simulated model", command: '<%= config.bin %> sleep run' },
    {
      description: 'The shipped researcher persona as this project, at most 200 model calls; the proposal is staged for `sleep adopt`',
      command: '<%= config.bin %> sleep run --persona researcher --set budget.total.max_calls=200',
    },
    {
      description: 'Keep the proposal in the project (git-ignored), as one JSON result line',
      command: '<%= config.bin %> sleep run --persona programmer --staging-in-project --json',
    },
  ];
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project the night is for (default: the current folder): its sessions, its state, its proposal' }),
    skill: Flags.string({
      description:
        'the skill document whose learned block the night trains (default: <project>/.claude/skills/skillopt-sleep-learned/SKILL.md, created on adoption if missing)',
    }),
    tasks: Flags.string({ description: 'a reviewed task file of this project to replay instead of harvesting (no checkpoint moves)', exclusive: ['persona'] }),
    persona: Flags.string({ description: `a shipped example developer's tasks, replayed as this project's, to try a night on: ${PERSONAS.join(' or ')}` }),
    miner: Flags.string({
      description: "llm (default): the config's optimizer model mines the new sessions into tasks; heuristic: no model (tasks without references)",
    }),
    ...MODEL_FLAGS,
    config: Flags.string({ char: 'c', description: 'a SkillOpt config file: backends, gate settings, budgets, over the night defaults' }),
    set: Flags.string({ description: 'one config value, key=value (repeatable), e.g. budget.total.max_wall_seconds=1800', multiple: true }),
    'edit-budget': Flags.integer({ description: 'the most rules one night may add, change or remove', default: DEFAULT_EDIT_BUDGET, min: 1 }),
    'staging-in-project': Flags.boolean({ description: 'stage in <project>/.skillopt-sleep/staging (with a .gitignore) instead of the state directory' }),
    recall: Flags.integer({ description: "add the n earlier tasks of this project most like tonight's to each skill's training", default: 0, min: 0 }),
    'skill-root': Flags.string({
      description:
        "another folder of <name>/SKILL.md skills (repeatable): a task whose session used a skill by name trains that skill, found there or in the project's .agents, .claude, .cursor or .devin skills or ~/.claude/skills, with its own gate and proposal",
      multiple: true,
    }),
    'auto-adopt': Flags.boolean({ description: 'adopt what the night stages at once, as `sleep adopt` does (undo it with `sleep adopt --undo`)' }),
    ...SOURCE_FLAGS,
    ...WINDOW_FLAGS,
    'max-tasks': Flags.integer({ description: 'the most tasks mined from the sessions', default: DEFAULT_MINED_TASKS, min: 1 }),
    'val-fraction': Flags.string({ description: "the share of mined tasks held out to validate the night's edits (0 up to 1; default 0.34)" }),
    'test-fraction': Flags.string({ description: 'the share of mined tasks held out as a test the night only reports (0 up to 1; default 0)' }),
    ...LOCATION_FLAGS,
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the report' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepRun);
    const workingDirectory = process.cwd();
    const request = await sleepConfigRequest(flags, workingDirectory);
    const result = await runProjectNight({
      ...(flags.source === undefined ? {} : { sources: flags.source }),
      project: flags.project,
      skill: flags.skill,
      tasksFile: flags.tasks,
      persona: flags.persona,
      miner: minerFlag(flags.miner),
      since: flags.since,
      lookback: flags.lookback,
      maxSessions: flags['max-sessions'],
      maxTasks: flags['max-tasks'],
      ...splitFractionFlags(flags),
      stateDirectory: flags['state-dir'],
      locations: sourceLocationsOf(flags, workingDirectory),
      workingDirectory,
      layers: request.layers,
      overrides: request.overrides,
      resolver: request.resolver,
      editBudget: flags['edit-budget'],
      stagingInProject: flags['staging-in-project'],
      autoAdopt: flags['auto-adopt'],
      skillRoots: flags['skill-root'],
      recall: flags.recall,
      resumeCommand: 'skillopt sleep run (the next night starts over)',
    }).catch(rethrowAsAnswersPendingStop(`${this.config.bin} sleep run`));
    for (const warning of result.warnings) writeWarning(warning);
    if (projectNightExitCode(result) === 1) process.exitCode = EXIT_CODES.runFailed;
    const { markdown, ...facts } = result;
    if (this.jsonEnabled()) return facts;
    process.stdout.write(markdown);
    writeLine(`\nThe night's files: ${result.nightDirectory}`);
    if (result.adoptions !== undefined) process.stdout.write(adoptionSummary(result.adoptions, 'skillopt sleep'));
    return facts;
  }
}
