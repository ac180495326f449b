import type { ScaffoldContext } from './context.js';

/** src/config.js: the env's own config section (`env:` in a run config) as a strict zod schema. */
export function buildConfigSource(context: ScaffoldContext): string {
  return `// The \`env\` section of a SkillOpt run config, as this env reads it. Strict: a misspelt key is an
// error (the CLI suggests the nearest valid key), never a silently ignored setting. The trainer's
// own env keys (\`name\`, \`skill_init\`, \`out_root\`) are taken out before this schema sees the section.
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { z } from 'zod';

/** The dataset shipped with the package: data/train, data/val and data/test. */
export const SHIPPED_SPLIT_DIR = fileURLToPath(new URL('../data', import.meta.url));

export const configSchema = z.strictObject({
  /** A split root of your own (train/val/test as items.json or .jsonl); empty: the shipped dataset. */
  split_dir: z.string().default(''),
  /** Keep only the first \`limit\` items of each split; 0 keeps all. */
  limit: z.int().nonnegative().default(0),
  /** The target's output-token cap for one answer. */
  max_completion_tokens: z.int().positive().default(1024),
});

/**
 * Parses a config section (defaults filled in), or throws a \`config-invalid\` SkillOptError that
 * lists every problem.
 */
export function parseConfig(input) {
  const parsed = configSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : 'env.' + issue.path.join('.') + ': ' + issue.message))
    .join('; ');
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: 'invalid ${context.name} config: ' + problems,
  });
}
`;
}
