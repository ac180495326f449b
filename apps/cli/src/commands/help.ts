import { Args, loadHelpClass } from '@oclif/core';
import { SkillOptCommand } from '../base-command.js';

/**
 * `skillopt help [COMMAND]`: what @oclif/plugin-help's command does, with the help class package.json
 * names (which names the nearest command for one that does not exist), without the plugin, so root
 * help stays one manifest the fast path can render.
 */
export default class Help extends SkillOptCommand {
  static override summary = 'Show the help of skillopt or of one of its commands.';
  static override description =
    'Prints what --help (or -h) after a command prints: its usage, flags, description and examples. Without a command it lists the topics and commands.';
  static override examples = [
    { description: 'The help of train', command: '<%= config.bin %> help train' },
    { description: 'The commands of a topic', command: '<%= config.bin %> help runs' },
  ];
  static override args = { command: Args.string({ description: 'the command (or topic) to show the help of', required: false }) };
  // `help runs show` names one command in two words: every word is the subject, none is an unexpected argument.
  static override strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    const words = argv as string[];
    const HelpClass = await loadHelpClass(this.config);
    await new HelpClass(this.config, this.config.pjson.oclif.helpOptions ?? this.config.pjson.helpOptions).showHelp(words);
  }
}
