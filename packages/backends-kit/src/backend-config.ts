import { ERROR_CODES, SkillOptError, type ConfigSchema } from '@skillopt/contract';
import { formatZodIssues, type ValidationIssue } from '@skillopt/runtime-kit';

/**
 * A problem with a backend's settings (its `backends.<id>` section, or the environment it reads):
 * the user's to fix, never retried. Every backend reports them in this one form, starting with the
 * section's key, so the user knows which part of which file to open.
 */
export function backendConfigError(backendId: string, message: string, details?: Record<string, unknown>): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    retryable: false,
    message: `backends.${backendId}: ${message}`,
    details: { backend: backendId, ...details },
  });
}

/**
 * A backend's config section parsed by its schema (defaults filled in), or one `config-invalid`
 * error listing every problem at its full key (`backends.openai.target.base_url: …`), so the user
 * fixes them all in one go.
 */
export function parseBackendConfig<Config>(schema: ConfigSchema<Config>, input: unknown, backendId: string): Config {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    retryable: false,
    message: formatZodIssues(issues, { pathPrefix: `backends.${backendId}` }),
    details: { backend: backendId, issues: issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) },
  });
}

/** The issues of a zod 3 or zod 4 error (the schema is structural), or the error as one issue. */
function issuesOf(error: unknown): ValidationIssue[] {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues.length > 0) return issues as ValidationIssue[];
  return [{ path: [], message: error instanceof Error ? error.message : String(error) }];
}
