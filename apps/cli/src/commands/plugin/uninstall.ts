import { Args, Flags } from '@oclif/core';
import { performPluginAction } from '@skillopt/sleep/installer';
import { locatePluginPackage, PLUGIN_IDS } from '../../plugins/plugin-package.js';
import { cliInstallDirectory } from '../../run-setup/command-config.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class PluginUninstall extends StreamingCommand {
  static override summary = 'Take out of an agent runtime exactly what `skillopt plugin install` put in.';
  static override description =
    "Reads the install's receipt in Sleep's state folder and removes the files it placed and the settings entries it added, putting back any value or file of yours they replaced. What you changed since the install is left and listed. A backend package the install added is removed too; the plugin's npm package stays (npm uninstall --global @skillopt/plugin-<id> removes it).";
  static override examples = [
    { description: 'Claude Code, for you', command: '<%= config.bin %> plugin uninstall claude-code' },
    { description: 'Codex, for one project', command: '<%= config.bin %> plugin uninstall codex --project .' },
  ];
  static override args = { id: Args.string({ description: `the runtime: ${PLUGIN_IDS.join(', ')}`, required: true }) };
  static override flags = {
    project: Flags.string({ char: 'p', description: 'the project the plugin was installed for (default: for you)' }),
    'state-dir': Flags.string({ description: "Sleep's state folder (default $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep)" }),
  };

  async run(): Promise<object> {
    const { args, flags } = await this.parse(PluginUninstall);
    const workingDirectory = process.cwd();
    const packageRoot = locatePluginPackage(args.id, [workingDirectory, cliInstallDirectory()]);
    const outcome = await performPluginAction(
      packageRoot,
      'uninstall',
      { project: flags.project, stateDirectory: flags['state-dir'] },
      { environment: process.env, workingDirectory },
    );
    if (!this.jsonEnabled()) process.stdout.write(outcome.summary);
    return outcome.result;
  }
}
