import { statSync } from 'node:fs';
import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { EXIT_CODES, SkillOptCommand } from '../base-command.js';
import { existingScaffoldFiles, writeScaffold } from '../scaffold/index.js';
import { STARTER_BACKEND_NAMES, STARTER_BACKENDS, type StarterBackendName } from '../starter/starter-backends.js';
import { starterFiles } from '../starter/starter-files.js';

/**
 * How the next steps name the CLI: the package's own name, which npx runs from the project's
 * node_modules where it is installed (and from the registry where it is not).
 * Plain npx of the bare bin name outside a project would resolve an unrelated package of that name.
 */
const CLI_COMMAND = 'npx @skillopt/cli';

export default class Init extends SkillOptCommand {
  static override summary = 'Write a starter project: a config, a small dataset and an initial skill, ready to train.';
  static override description =
    "Writes skillopt.config.yaml (found by its name, so `skillopt train` in the directory needs no --config), 42 questions of SkillOpt's demo set in SearchQA's split-directory format (data/train, data/val, data/test), and skills/initial.md, the skill training starts from. The config trains on the simulated model (no API key, no network) unless --backend names a provider; it then needs only that provider's key in the environment. Existing files are never overwritten without --force; nothing is written if any would be.";
  static override examples = [
    { description: 'A starter project in the working directory, on the simulated model', command: '<%= config.bin %> init' },
    { description: 'In a new directory, for OpenAI (then: OPENAI_API_KEY)', command: '<%= config.bin %> init my-skill --backend openai' },
  ];
  static override args = {
    directory: Args.string({ description: 'where to write the project (default: the working directory)', default: '.' }),
  };
  static override flags = {
    backend: Flags.string({ description: 'the models the config trains with', options: [...STARTER_BACKEND_NAMES], default: 'sim' }),
    force: Flags.boolean({ description: 'replace files of the same name' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Init);
    const workingDirectory = process.cwd();
    const directory = path.resolve(workingDirectory, args.directory);
    const shown = path.relative(workingDirectory, directory) || '.';
    if (statSync(directory, { throwIfNoEntry: false })?.isDirectory() === false)
      this.error(`${shown} exists and is not a directory; choose another: ${this.config.bin} init <directory>`, { exit: EXIT_CODES.usageOrConfig });

    const backend = STARTER_BACKENDS[flags.backend as StarterBackendName];
    const files = await starterFiles(backend, this.config.root);
    const existing = existingScaffoldFiles(directory, files);
    if (existing.length > 0 && !flags.force)
      this.error(
        `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''} in ${shown}; nothing was written. Pass --force to replace ${existing.length === 1 ? 'it' : 'them'}, or choose another directory: ${this.config.bin} init <directory>`,
        { exit: EXIT_CODES.usageOrConfig },
      );
    await writeScaffold(directory, files);

    this.log(
      `Wrote a starter project in ${shown}${backend.id === 'sim' ? ' (the simulated model: no API key, no network)' : ` (${backend.target} and ${backend.optimizer})`}:`,
    );
    const pathWidth = Math.max(...files.map((file) => file.path.length));
    for (const file of files) this.log(`  ${file.path.padEnd(pathWidth)}   ${file.note}`);
    const steps: Array<[string, string]> = [
      ...(shown === '.' ? [] : ([[`cd ${shown.includes(' ') ? JSON.stringify(shown) : shown}`, '']] as Array<[string, string]>)),
      ...(backend.packageName ? ([[`npm install ${backend.packageName}`, 'the backend, if it is not installed yet']] as Array<[string, string]>) : []),
      ...(backend.keyVariable ? ([[`export ${backend.keyVariable}=<your key>`, 'the one thing the config needs']] as Array<[string, string]>) : []),
      [`${CLI_COMMAND} train`, 'trains the skill; it ends with the run directory'],
      [`${CLI_COMMAND} runs show <run directory>`, "the run's steps and the gate's decisions"],
    ];
    const width = Math.max(...steps.map(([command]) => command.length));
    this.log('');
    this.log('Next:');
    for (const [command, note] of steps) this.log(note === '' ? `  ${command}` : `  ${command.padEnd(width)}   # ${note}`);
  }
}
