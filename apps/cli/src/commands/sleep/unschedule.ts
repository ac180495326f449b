import { Flags } from '@oclif/core';
import { unscheduleNights, unscheduleSummary } from '@skillopt/sleep';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepUnschedule extends StreamingCommand {
  static override summary = "Remove what `sleep schedule` added: the project's crontab line, or with --systemd its unit files.";
  static override description =
    "Removes exactly what `sleep schedule` added and nothing else: the project's line from the block skillopt-sleep keeps in your crontab (with --all, every project's), and the block itself once it is empty, every other line kept byte for byte; with --systemd, the service and timer files schedule wrote (known by their first line), printing the systemctl command that stops a timer you had enabled. When nothing is scheduled it says so and exits 0.";
  static override examples = [
    {
      description: "Remove this project's systemd timer and service files (without --systemd: its crontab line)",
      command: '<%= config.bin %> sleep unschedule --systemd',
    },
    { description: 'Every project schedule wrote units for, as one JSON result line', command: '<%= config.bin %> sleep unschedule --systemd --all --json' },
  ];
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project whose nightly night to remove (default: the current folder)', exclusive: ['all'] }),
    all: Flags.boolean({ description: "every project's: the whole managed block of the crontab, or every unit file schedule wrote" }),
    systemd: Flags.boolean({ description: 'remove the systemd user units schedule --systemd wrote instead of a crontab line' }),
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepUnschedule);
    const result = await unscheduleNights({ project: flags.project, all: flags.all, systemd: flags.systemd, workingDirectory: process.cwd() });
    if (!this.jsonEnabled()) process.stdout.write(unscheduleSummary(result));
    return result;
  }
}
