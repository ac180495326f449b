import { Flags } from '@oclif/core';
import { PERSONAS, scheduleNight, scheduleSummary } from '@skillopt/sleep';
import { writeWarning } from '../../inspection/write-output.js';
import { LOCATION_FLAGS, SOURCE_FLAGS } from '../../sleep/harvest-flags.js';
import { MODEL_FLAGS } from '../../sleep/model-flags.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepSchedule extends StreamingCommand {
  static override summary = "Run a project's Sleep night every day: a line in your crontab, or with --systemd a systemd user timer.";
  static override description = [
    "Installs a nightly `sleep run` of the project (the current folder, or --project) at --hour:--minute local time (default 03:17). By default it is one line in your crontab, inside a block of skillopt-sleep's own: scheduling the same project again replaces its line, and every other line of your crontab is kept byte for byte. Each night's output is appended to cron.log in the project's folder of Sleep's state directory. With --systemd it writes a systemd user service and timer instead (files only: it prints the systemctl command that starts them).",
    "The command names the node executable and Sleep's own skillopt-sleep bin by absolute path, runs in the project's folder, and carries the night's flags given here (--skill, --backend, --model, --config, --set, --auto-adopt and the rest of `sleep run`'s), paths made absolute. Everything is checked before anything is written: the time, control characters, files that must exist.",
    'API keys are never written into the crontab or a unit file: a --set that names or looks like a secret is refused. The night reads them from an environment file you own, <state directory>/sleep.env (or --env-file): NAME=value lines, read only when the file exists, chmod 600 (schedule warns when it is readable by others). `sleep unschedule` removes what schedule added.',
  ].join('\n\n');
  static override examples = [
    {
      description:
        "This project's night every day at 03:17 as a systemd user timer: it writes the unit files and prints the systemctl command that starts it (without --systemd, the same night goes into your crontab)",
      command: '<%= config.bin %> sleep schedule --systemd',
    },
    {
      description: 'At 02:30, at most 300 model calls a night, adopting what the gate accepts, as one JSON result line',
      command: '<%= config.bin %> sleep schedule --systemd --hour 2 --minute 30 --set budget.total.max_calls=300 --auto-adopt --json',
    },
  ];
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project whose nights to schedule (default: the current folder)' }),
    hour: Flags.integer({ description: 'the hour of the night, local time (0-23; default 3)', min: 0, max: 23 }),
    minute: Flags.integer({ description: 'the minute of the night (0-59; default 17)', min: 0, max: 59 }),
    systemd: Flags.boolean({
      description: 'write a systemd user service and timer (~/.config/systemd/user) instead of a crontab line; systemctl is left to you',
    }),
    'env-file': Flags.string({
      description: 'the NAME=value file the night reads API keys from when it exists (default <state directory>/sleep.env; chmod 600)',
    }),
    'state-dir': Flags.string({ description: "Sleep's state folder, passed to every night (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)" }),
    skill: Flags.string({ description: 'the skill document the nights train (default: <project>/.claude/skills/skillopt-sleep-learned/SKILL.md)' }),
    tasks: Flags.string({ description: 'a reviewed task file of this project to replay every night instead of its sessions', exclusive: ['persona'] }),
    persona: Flags.string({ description: `a shipped example developer's tasks every night, to try a schedule on: ${PERSONAS.join(' or ')}` }),
    miner: Flags.string({ description: "llm (the night's default) or heuristic" }),
    ...MODEL_FLAGS,
    config: Flags.string({ char: 'c', description: 'a SkillOpt config file (backends, gate, budgets) every night reads; its absolute path is kept' }),
    set: Flags.string({ description: 'one config value for every night, key=value (repeatable); a secret is refused', multiple: true }),
    'edit-budget': Flags.integer({ description: 'the most rules one night may add, change or remove', min: 1 }),
    'staging-in-project': Flags.boolean({ description: 'stage in <project>/.skillopt-sleep/staging (with a .gitignore)' }),
    'auto-adopt': Flags.boolean({ description: 'adopt what a night stages at once, as `sleep adopt` does' }),
    recall: Flags.integer({ description: "the n earlier tasks of the project most like a night's to add to its training", min: 0 }),
    'skill-root': Flags.string({ description: 'another folder of <name>/SKILL.md skills a night may train (repeatable)', multiple: true }),
    ...SOURCE_FLAGS,
    'max-sessions': Flags.integer({ description: 'the most sessions a night reads', min: 1 }),
    'max-tasks': Flags.integer({ description: 'the most tasks a night mines', min: 1 }),
    'val-fraction': Flags.string({ description: 'the share of mined tasks held out to validate (0 up to 1)' }),
    'test-fraction': Flags.string({ description: 'the share of mined tasks held out as a test (0 up to 1)' }),
    ...LOCATION_FLAGS,
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepSchedule);
    const { project, hour, minute, systemd, 'env-file': environmentFile, 'state-dir': stateDirectory, json: _json, ...night } = flags;
    const result = await scheduleNight({ project, hour, minute, systemd, environmentFile, stateDirectory, night, workingDirectory: process.cwd() });
    for (const warning of result.warnings) writeWarning(warning);
    if (!this.jsonEnabled()) process.stdout.write(scheduleSummary(result, 'skillopt sleep'));
    return result;
  }
}
