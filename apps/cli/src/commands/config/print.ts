import { Flags } from '@oclif/core';
import { redactSecretText } from '@skillopt/contract';
import { describeConfigSource } from '@skillopt/core';
import { configFlags, overridesOf, SkillOptCommand } from '../../base-command.js';
import { describeSource, formatAnnotatedConfig } from '../../inspection/annotated-config.js';
import { describePackageProblem, inspectConfig } from '../../inspection/inspect-config.js';
import { writeLine, writeWarning } from '../../inspection/write-output.js';

export default class ConfigPrint extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Print the resolved configuration, with where each value came from.';
  static override description =
    'Resolves the configuration exactly as `skillopt train` does (the discovered project defaults, --config with its _base_ files, --set overrides, the original SkillOpt format translated, secrets dropped, relative paths made absolute, every default filled in, validated against core and the installed env and backend packages) and prints it as YAML, each value followed by a comment naming its source: the file (and, for a _base_, the file that included it), the override, or "default". Warnings go to stderr. A package the config names that is not installed does not stop it: its section is printed unvalidated and a warning names the npm install.';
  static override examples = [
    { description: "The project's config (the discovered skillopt.config.yaml) as a run would see it", command: '<%= config.bin %> config print' },
    {
      description: 'With an override, as JSON (config, sources, warnings)',
      command: '<%= config.bin %> config print -c skillopt.config.yaml --set train.num_epochs=2 --json',
    },
  ];
  static override flags = {
    ...configFlags,
    json: Flags.boolean({ description: 'print {config, sources, warnings, files, originalFormat, packages} as JSON' }),
  };

  async run(): Promise<Record<string, unknown> | undefined> {
    const { flags } = await this.parse(ConfigPrint);
    const workingDirectory = process.cwd();
    const inspected = await inspectConfig({ ...(flags.config ? { configFile: flags.config } : {}), overrides: overridesOf(flags), workingDirectory });
    const warnings = [
      ...inspected.warnings.map((warning) => ({ code: warning.code as string, ...(warning.path ? { path: warning.path } : {}), message: warning.message })),
      ...inspected.packages
        .filter((found) => found.problem)
        .map((found) => ({ code: 'package-missing', path: found.kind === 'env' ? 'env' : `backends.${found.name}`, message: describePackageProblem(found) })),
    ];
    for (const warning of warnings) writeWarning(warning.message);

    if (this.jsonEnabled()) {
      const sources = Object.fromEntries(
        Object.entries(inspected.sources).map(([key, source]) => [key, { ...source, description: describeConfigSource(source) }]),
      );
      // Secrets are cut out of what --json prints (SkillOptCommand's logJson), as in artifacts.
      return {
        config: inspected.config,
        sources,
        warnings,
        files: inspected.files,
        originalFormat: inspected.originalFormat,
        packages: inspected.packages,
        complete: inspected.complete,
      };
    }
    const files = inspected.files.map((file) => describeSource({ kind: 'file', path: file }, workingDirectory));
    const header = [
      `# The resolved configuration${files.length > 0 ? ` of ${files.join(', ')}` : ''}${inspected.originalFormat ? " (written in the original SkillOpt's format, translated)" : ''}.`,
      '# Each value is followed by where it came from.',
    ];
    const missing = inspected.packages.filter((found) => found.problem);
    if (missing.length > 0)
      header.push(
        `# Not validated: ${missing.map((found) => (found.kind === 'env' ? 'env' : `backends.${found.name}`)).join(', ')} (package not installed or unusable; see the warnings).`,
      );
    writeLine(redactSecretText(`${header.join('\n')}\n${formatAnnotatedConfig(inspected.config, inspected.sources, workingDirectory)}`));
    return undefined;
  }
}
