import { Flags } from '@oclif/core';
import { DEFAULT_MINED_TASKS, mineSessionsToTaskFile, mineSummary, sourceLocationsOf, splitFractionFlags } from '@skillopt/sleep';
import { writeWarning } from '../../inspection/write-output.js';
import { LOCATION_FLAGS, SOURCE_FLAGS, WINDOW_FLAGS } from '../../sleep/harvest-flags.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepMine extends StreamingCommand {
  static override summary = "Turn one project's sessions into a Sleep task file for you to review, then pass to `sleep dry-run`.";
  static override description = [
    "Harvests one project's sessions (as `sleep harvest` does, with the same sources, window and flags) and mines a task from each: its first prompt as the request, the follow-ups as context, the last reply as what was tried, the outcome its feedback tells. The tasks are split into training and held-out validation (and test) tasks, stably by their id.",
    'These tasks carry no reference yet, so a night cannot judge a replay of them: the file is for you to review. Give each task you want judged the answer you wanted (`"referenceKind": "exact"`), a rubric (`"rubric"`) or rule checks (`"rule"`), set `"reviewed": true`, and pass it to `sleep dry-run --tasks`. The file is written under --out, by default under the project\'s folder of Sleep\'s state directory, outside the project, because it holds your prompts. Nothing else is written; no checkpoint moves.',
  ].join('\n\n');
  static override examples = [
    { description: "This project's sessions of the last week, into a task file here", command: '<%= config.bin %> sleep mine --lookback 7d --out tasks.json' },
    {
      description: 'Claude Code only, more tasks held out, as one JSON result line',
      command: '<%= config.bin %> sleep mine --source claude-code --val-fraction 0.5 --json',
    },
  ];
  static override flags = {
    ...SOURCE_FLAGS,
    project: Flags.string({ char: 'p', description: 'the project folder whose sessions to mine (default: the current folder)' }),
    ...WINDOW_FLAGS,
    'max-tasks': Flags.integer({ description: 'the most tasks the file holds', default: DEFAULT_MINED_TASKS, min: 1 }),
    'val-fraction': Flags.string({ description: "the share of tasks held out to validate a night's edits (0 up to 1; default 0.34)" }),
    'test-fraction': Flags.string({ description: 'the share of tasks held out as a test a night only reports (0 up to 1; default 0)' }),
    out: Flags.string({ description: "the task file to write (default: under the project's folder in ~/.skillopt-sleep, outside the project)" }),
    ...LOCATION_FLAGS,
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepMine);
    const workingDirectory = process.cwd();
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
    });
    for (const warning of warnings) writeWarning(warning);
    if (!this.jsonEnabled()) process.stdout.write(mineSummary(result, 'skillopt sleep'));
    return result;
  }
}
