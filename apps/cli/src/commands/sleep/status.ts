import { Flags } from '@oclif/core';
import { readSleepStatus, statusSummary } from '@skillopt/sleep';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepStatus extends StreamingCommand {
  static override summary = 'What Sleep knows of a project: its nights, where the next one starts reading, its staged proposals.';
  static override description =
    "Reads the project's folder of Sleep's state directory without locking anything: how many nights ended and how (the last five, with their validation scores), whether a night is running now, each source's checkpoint, every staged proposal with whether it is pending, adopted or undone, and whether an adoption was interrupted (the next `sleep adopt` rolls it back first).";
  static override examples = [
    { description: 'This project', command: '<%= config.bin %> sleep status' },
    { description: 'As one JSON result line', command: '<%= config.bin %> sleep status --json' },
  ];
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project (default: the current folder)' }),
    'state-dir': Flags.string({ description: "Sleep's state folder (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)" }),
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepStatus);
    const status = await readSleepStatus({ project: flags.project, stateDirectory: flags['state-dir'], workingDirectory: process.cwd() });
    if (!this.jsonEnabled()) process.stdout.write(statusSummary(status, 'skillopt sleep'));
    return status;
  }
}
