import { Flags } from '@oclif/core';
import { adoptStaged, adoptionSummary } from '@skillopt/sleep';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepAdopt extends StreamingCommand {
  static override summary = 'Write a staged Sleep proposal into the live skill document, as one transaction; --undo puts it back.';
  static override description = [
    "Adopts the project's newest proposal not yet adopted (or the one --staging names; when a night proposed for several skills, those --skill names, or --all-skills): each document it holds replaces its live file, all of them or none. It refuses when a live document changed since the night read it (the proposal was made from the old text: run a new night), or when the staged files were edited. The files it replaces are backed up beside the proposal, and a receipt records what changed.",
    'It runs under a lock (a lock left by a killed process is taken over) and a journal: if it is killed between two files, the next `sleep adopt` first rolls back what the killed one wrote, so nothing stays half-applied. `--undo` restores what the last adoption replaced (a document it created is removed), refusing if the document changed since.',
  ].join('\n\n');
  static override examples = [
    { description: "This project's latest staged proposal (here, a night of the researcher persona's)", command: '<%= config.bin %> sleep adopt' },
    { description: 'Put back what the last adoption replaced', command: '<%= config.bin %> sleep adopt --undo' },
  ];
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project (default: the current folder)' }),
    staging: Flags.string({
      description: "the staged proposal's folder (default: each skill's newest proposal, when only one is waiting; with --undo, the one adopted)",
      exclusive: ['skill', 'all-skills'],
    }),
    skill: Flags.string({ description: 'the skill whose newest proposal to adopt or undo (repeatable), when a night proposed for several', multiple: true }),
    'all-skills': Flags.boolean({ description: "every skill's newest proposal waiting (or, with --undo, adopted)", exclusive: ['skill'] }),
    undo: Flags.boolean({ description: 'restore what the adoption of the proposal replaced' }),
    'state-dir': Flags.string({ description: "Sleep's state folder (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)" }),
    json: Flags.boolean({ description: 'print one result line (docs/cli-json.md) instead of the summary' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepAdopt);
    const result = await adoptStaged({
      project: flags.project,
      staging: flags.staging,
      skills: flags.skill,
      allSkills: flags['all-skills'],
      undo: flags.undo,
      stateDirectory: flags['state-dir'],
      workingDirectory: process.cwd(),
    });
    if (!this.jsonEnabled()) process.stdout.write(adoptionSummary(result, 'skillopt sleep'));
    return { adoptions: result };
  }
}
