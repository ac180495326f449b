import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';
import type { z } from 'zod';

/**
 * An env's config section parsed by its schema, or one `config-invalid` SkillOptError that lists
 * every problem with its `env.<key>` path, so a user fixes them all in one go.
 */
export function parseEnvironmentConfig<Schema extends z.ZodType>(schema: Schema, input: unknown, environmentId: string): z.output<Schema> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = formatZodIssues(parsed.error, { pathPrefix: 'env' });
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `invalid ${environmentId} config: ${problems}`,
    details: { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) },
  });
}
