import { type ErrorCategory, redactSecrets, redactSecretText, SkillOptError } from '@skillopt/contract';

/**
 * A failed command as its output reports it (docs/cli-json.md, "The error object"): the same
 * fields whether it is printed as text on stderr or as JSON on stdout under --json.
 */
export interface ErrorReport {
  /** SkillOptError's stable code; `usage-invalid` for a flag or argument refused; `internal` for anything else. */
  code: string;
  /** Whose problem it is: the user's (config, input), a provider's, or ours. */
  category: ErrorCategory;
  message: string;
  /** What to do about it, when the error carries that apart from its message. */
  remedy?: string;
  /** The exit code the command ends with (the root README's "Exit codes"). */
  exitCode: number;
  /** Facts for a bug report: the file, the key, the signal. */
  details?: Record<string, unknown>;
  /** The command that resumes the run, when a streaming command's run had started. */
  resumeCommand?: string;
}

/** The code of a flag or argument refused, by oclif's parser (an unknown flag, a missing argument) or by the command. */
export const USAGE_INVALID = 'usage-invalid';

/** The report of any error a command ends with, secrets cut out of every string. */
export function errorReportOf(error: unknown, exitCode: number): ErrorReport {
  if (SkillOptError.isInstance(error)) {
    const remedy = error.details?.remedy;
    return {
      code: error.code,
      category: error.category,
      message: redactSecretText(error.message),
      ...(typeof remedy === 'string' ? { remedy: redactSecretText(remedy) } : {}),
      exitCode,
      ...(error.details ? { details: redactSecrets(error.details) } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const refusedByParser = (error as { oclif?: { exit?: unknown } } | undefined)?.oclif?.exit === 2;
  return {
    code: refusedByParser ? USAGE_INVALID : 'internal',
    category: refusedByParser ? 'user' : 'internal',
    message: redactSecretText(message),
    exitCode,
  };
}

/**
 * The report as text for stderr: `Error: <message>`, then the remedy on a line of its own, never
 * wrapped (oclif wraps at 80 columns when stderr is not a terminal, which breaks a path or a
 * command in two for whoever greps or copies it).
 */
export function formatErrorText(report: ErrorReport): string {
  return `Error: ${report.message}\n${report.remedy === undefined ? '' : `${report.remedy}\n`}`;
}
