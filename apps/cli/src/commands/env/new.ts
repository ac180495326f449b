import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { SkillOptError } from '@skillopt/contract';
import { SkillOptCommand } from '../../base-command.js';
import { USAGE_INVALID } from '../../output/error-report.js';
import {
  describeEnvironmentNameProblem,
  describeTargetDirectoryProblem,
  detectScaffoldVersions,
  EXAMPLE_CONFIG_PATH,
  packageNameFor,
  scaffoldFiles,
  writeScaffold,
} from '../../scaffold/index.js';

export default class EnvNew extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Write a new env package, skillopt-env-<name>, ready to test, publish and train on.';
  static override description =
    "Scaffolds a third-party env package written against @skillopt/contract and @skillopt/env-kit alone: a manifest with a strict config schema, createEnvironment loading a shipped tiny dataset, an evaluator built from env-kit's scorers, an initial skill, Jest tests running the conformance suite, and a config that trains it on the simulated model. Plain ES modules: `npm install && npm test` works with no build step.";
  static override examples = [
    { description: 'Write ./skillopt-env-trivia', command: '<%= config.bin %> env new trivia' },
    { description: 'Write it somewhere else', command: '<%= config.bin %> env new trivia --directory packages/env-trivia' },
  ];
  static override args = {
    name: Args.string({ required: true, description: "the env's short name (env.name in configs): lower-case letters, digits and dashes" }),
  };
  static override flags = {
    directory: Flags.string({ char: 'd', description: 'where to write the package (default: ./skillopt-env-<name>)' }),
    force: Flags.boolean({ description: 'write into a non-empty directory, replacing files of the same name' }),
    json: Flags.boolean({ description: 'print {packageName, environmentId, directory, files, nextSteps} as JSON' }),
  };

  async run(): Promise<{ packageName: string; environmentId: string; directory: string; files: string[]; nextSteps: string[] }> {
    const { args, flags } = await this.parse(EnvNew);
    const nameProblem = describeEnvironmentNameProblem(args.name);
    if (nameProblem !== undefined) throw usageError(nameProblem);

    const packageName = packageNameFor(args.name);
    const workingDirectory = process.cwd();
    const directory = path.resolve(workingDirectory, flags.directory ?? packageName);
    const directoryProblem = describeTargetDirectoryProblem(directory, { force: flags.force });
    if (directoryProblem !== undefined) throw usageError(directoryProblem);

    const files = scaffoldFiles({ name: args.name, packageName, versions: detectScaffoldVersions(this.config.root) });
    await writeScaffold(directory, files);

    const shown = path.relative(workingDirectory, directory) || '.';
    this.log(`Wrote ${packageName} (env id "${args.name}") in ${shown}:`);
    for (const file of files) this.log(`  ${file.path}`);
    const steps: Array<[string, string]> = [
      ...(shown === '.' ? [] : ([[`cd ${shown.includes(' ') ? JSON.stringify(shown) : shown}`, '']] as Array<[string, string]>)),
      ['npm install', ''],
      ['npm test', "the conformance suite and the scorer's tests"],
      [`${this.config.bin} train --config ${EXAMPLE_CONFIG_PATH}`, 'train it on the simulated model'],
      ['npm publish', `then anywhere: npm install ${packageName}, and env.name: ${args.name}`],
    ];
    const width = Math.max(...steps.map(([command]) => command.length));
    this.log('');
    this.log('Next:');
    for (const [command, note] of steps) this.log(note === '' ? `  ${command}` : `  ${command.padEnd(width)}   # ${note}`);
    return { packageName, environmentId: args.name, directory, files: files.map((file) => file.path), nextSteps: steps.map(([command]) => command) };
  }
}

function usageError(message: string): SkillOptError {
  return new SkillOptError({ code: USAGE_INVALID, category: 'user', message });
}
