import { SkillOptError } from '@skillopt/contract';
import { USAGE_INVALID } from '../output/error-report.js';
import { nearestWord } from '@skillopt/core';

interface FlagDefinition {
  char?: string;
  aliases?: string[];
  charAliases?: string[];
  allowNo?: boolean;
  hidden?: boolean;
}

/** What oclif's parser throws for flags a command does not have (its NonExistentFlagsError, which @oclif/core does not export). */
interface NonexistentFlags {
  flags: string[];
  parse: { input: { flags: Record<string, FlagDefinition> } };
}

function isNonexistentFlags(error: unknown): error is NonexistentFlags {
  const candidate = error as Partial<NonexistentFlags> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Array.isArray(candidate.flags) &&
    typeof candidate.parse?.input?.flags === 'object' &&
    candidate.flags.every((flag) => typeof flag === 'string')
  );
}

/**
 * oclif's "Nonexistent flag: --confg" (with the command's whole help after it) as a usage error that
 * names the nearest flag of the command: "unknown flag --confg: did you mean --config?", exit 2.
 * undefined for any other error.
 */
export function unknownFlagError(error: unknown, command: string): SkillOptError | undefined {
  if (!isNonexistentFlags(error)) return undefined;
  const known = Object.entries(error.parse.input.flags)
    .filter(([, flag]) => !flag.hidden)
    .flatMap(([name, flag]) => [name, ...(flag.aliases ?? []), ...(flag.allowNo ? [`no-${name}`] : [])]);
  const described = error.flags.map((typed) => {
    const name = typed.split('=')[0] ?? typed;
    const nearest = name.startsWith('--') ? nearestWord(name.slice(2), known) : undefined;
    return nearest === undefined ? name : `${name} (did you mean --${nearest.word}?)`;
  });
  const plural = error.flags.length === 1 ? '' : 's';
  return new SkillOptError({
    code: USAGE_INVALID,
    category: 'user',
    message: `unknown flag${plural} ${described.join(', ')}: \`${command} --help\` lists the flags.`,
    details: { flags: error.flags },
  });
}
