import { Args, Flags } from '@oclif/core';
import { performPluginAction } from '@skillopt/sleep/installer';
import { locatePluginPackage, PLUGIN_IDS } from '../../plugins/plugin-package.js';
import { cliInstallDirectory } from '../../run-setup/command-config.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class PluginInstall extends StreamingCommand {
  static override summary = 'Put SkillOpt-Sleep into an agent runtime: an installed @skillopt/plugin-<id> placed and enabled.';
  static override description = [
    `Installs the plugin of one agent runtime (${PLUGIN_IDS.join(', ')}) from its package, @skillopt/plugin-<id>, which must be installed (npm install --global @skillopt/plugin-<id>): the same as that package's own \`skillopt-plugin-<id> install\`. Its files are placed and its entries merged into the runtime's settings without overwriting yours; a second install changes nothing, a malformed settings file is reported and left as it is, and a receipt in Sleep's state folder lets \`skillopt plugin uninstall\` take out exactly what was added.`,
    "--backend installs that backend's package beside the plugin with npm and makes it the default of Sleep's nights (in ~/.skillopt-sleep/config.json); its key comes from the environment, never from a file.",
  ].join('\n\n');
  static override examples = [
    { description: 'Claude Code, for you', command: '<%= config.bin %> plugin install claude-code' },
    { description: 'Codex, for one project only', command: '<%= config.bin %> plugin install codex --project .' },
  ];
  static override args = { id: Args.string({ description: `the runtime: ${PLUGIN_IDS.join(', ')}`, required: true }) };
  static override flags = {
    project: Flags.string({ char: 'p', description: 'install for this project only, where the runtime has project installs (default: for you)' }),
    backend: Flags.string({ description: "the backend of Sleep's nights (default sim): openai, anthropic, claude-code, codex, …, or a package name" }),
    'state-dir': Flags.string({ description: "Sleep's state folder, where the install's receipt goes (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)" }),
  };

  async run(): Promise<object> {
    const { args, flags } = await this.parse(PluginInstall);
    const workingDirectory = process.cwd();
    const packageRoot = locatePluginPackage(args.id, [workingDirectory, cliInstallDirectory()]);
    const outcome = await performPluginAction(
      packageRoot,
      'install',
      { project: flags.project, backend: flags.backend, stateDirectory: flags['state-dir'] },
      { environment: process.env, workingDirectory },
    );
    if (!this.jsonEnabled()) process.stdout.write(outcome.summary);
    return outcome.result;
  }
}
