import { Flags } from '@oclif/core';
import {
  DEFAULT_MINED_TASKS,
  mineExitCode,
  minerFlag,
  mineSessionsToTaskFile,
  mineSummary,
  rethrowAsAnswersPendingStop,
  sourceLocationsOf,
  splitFractionFlags,
} from '@skillopt/sleep';
import { writeWarning } from '../../inspection/write-output.js';
import { EXIT_CODES } from '../../base-command.js';
import { LOCATION_FLAGS, SOURCE_FLAGS, WINDOW_FLAGS } from '../../sleep/harvest-flags.js';
import { MODEL_FLAGS } from '../../sleep/model-flags.js';
import { sleepConfigRequest } from '../../sleep/sleep-config-request.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepMine extends StreamingCommand {
  static override summary = "Turn one project's sessions into a Sleep task file for you to review, then pass to `sleep dry-run`.";
  static override description = [
    "Harvests one project's sessions (as `sleep harvest` does, with the same sources, window and flags) and mines a task from each: its first prompt as the request, the follow-ups as context, the last reply as what was tried, the outcome its feedback tells. The tasks are split into training and held-out validation (and test) tasks, stably by their id.",
    "With --miner llm, the config's optimizer model reads each session and writes the tasks with a reference, a rubric or rule checks; its calls go to a ledger of their own under Sleep's state directory, and the simulated model (the default, no key) only demonstrates. The heuristic miner (the default) writes no reference, so a night cannot judge a replay of its tasks until you review them.",
    'Either way the file is for you to review. Give each task you want judged the answer you wanted (`"referenceKind": "exact"`), a rubric (`"rubric"`) or rule checks (`"rule"`), set `"reviewed": true`, and pass it to `sleep dry-run --tasks`. The file is written under --out, by default under the project\'s folder of Sleep\'s state directory, outside the project, because it holds your prompts. Nothing else is written; no checkpoint moves.',
    "With --miner llm on the handoff backend (--backend handoff, its package installed beside), each session whose request waits for an answer is asked all the same, then the command stops with exit code 3 and names the folder they wait in, handoff/ in the project's folder of Sleep's state directory (its index.json lists them): answer each one, then run the same command again.",
  ].join('\n\n');
  static override examples = [
    { description: "This project's sessions of the last week, into a task file here", command: '<%= config.bin %> sleep mine --lookback 7d --out tasks.json' },
    {
      description: 'Claude Code only, more tasks held out, as one JSON result line',
      command: '<%= config.bin %> sleep mine --source claude-code --val-fraction 0.5 --json',
    },
    {
      description: 'A model writes the references: here the simulated one, as a demonstration',
      command: '<%= config.bin %> sleep mine --miner llm --set model.optimizer_backend=sim --out tasks.json',
    },
  ];
  static override flags = {
    ...SOURCE_FLAGS,
    project: Flags.string({ char: 'p', description: 'the project folder whose sessions to mine (default: the current folder)' }),
    ...WINDOW_FLAGS,
    'max-tasks': Flags.integer({ description: 'the most tasks the file holds', default: DEFAULT_MINED_TASKS, min: 1 }),
    'val-fraction': Flags.string({ description: "the share of tasks held out to validate a night's edits (0 up to 1; default 0.34)" }),
    'test-fraction': Flags.string({ description: 'the share of tasks held out as a test a night only reports (0 up to 1; default 0)' }),
    miner: Flags.string({ description: "heuristic (default), or llm: the config's optimizer model writes references, rubrics and checks" }),
    ...MODEL_FLAGS,
    config: Flags.string({ char: 'c', description: "a SkillOpt config file naming the LLM miner's backend (model.optimizer_backend)" }),
    set: Flags.string({ description: 'one config value for the LLM miner, key=value (repeatable), e.g. model.optimizer=gpt-5-mini', multiple: true }),
    out: Flags.string({ description: "the task file to write (default: under the project's folder in ~/.skillopt-sleep, outside the project)" }),
    ...LOCATION_FLAGS,
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepMine);
    const workingDirectory = process.cwd();
    const miner = minerFlag(flags.miner);
    const request = miner === 'llm' ? await sleepConfigRequest(flags, workingDirectory) : undefined;
    const { result, warnings } = await mineSessionsToTaskFile({
      ...(flags.source === undefined ? {} : { sources: flags.source }),
      project: flags.project,
      since: flags.since,
      lookback: flags.lookback,
      maxSessions: flags['max-sessions'],
      stateDirectory: flags['state-dir'],
      locations: sourceLocationsOf(flags, workingDirectory),
      workingDirectory,
      maxTasks: flags['max-tasks'],
      ...splitFractionFlags(flags),
      output: flags.out,
      miner,
      ...(request === undefined ? {} : { layers: request.layers, overrides: request.overrides, resolver: request.resolver }),
    }).catch(rethrowAsAnswersPendingStop(`${this.config.bin} sleep mine`));
    for (const warning of warnings) writeWarning(warning);
    if (mineExitCode(result) === 1) process.exitCode = EXIT_CODES.runFailed;
    if (!this.jsonEnabled()) process.stdout.write(mineSummary(result, 'skillopt sleep'));
    return result;
  }
}
