import type { Interfaces } from '@oclif/core';
import { SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';

/**
 * The usage error of a name that is no command (`skillopt trian`, `skillopt help trian`): it names
 * the nearest command or topic, so it never asks which one was meant, and exits 2 like any usage error.
 */
export function unknownCommandError(typed: string, config: Interfaces.Config): SkillOptError {
  const visible = config.commands.filter((command) => !command.hidden);
  const names = [
    ...visible.flatMap((command) => [command.id, ...command.aliases]),
    ...config.topics.filter((topic) => !topic.hidden).map((topic) => topic.name),
  ];
  const spaced = (id: string) => id.replaceAll(':', config.topicSeparator);
  const nearest = nearestWord(typed, new Set(names.map(spaced)));
  const suggestion = nearest === undefined ? '' : ` Did you mean \`${config.bin} ${nearest.word}\`?`;
  return new SkillOptError({
    code: 'unknown-command',
    category: 'user',
    message: `\`${typed}\` is not a ${config.bin} command.${suggestion} \`${config.bin} help\` lists the commands.`,
    details: { command: typed, ...(nearest === undefined ? {} : { suggestion: nearest.word }) },
  });
}
