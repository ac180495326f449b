/**
 * One validation problem as zod reports it. Typed structurally, so issues of zod 3, zod 4 or
 * another copy of zod fit, and this package needs no zod of its own.
 */
export interface ValidationIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface FormatZodIssuesOptions {
  /**
   * The dotted place the validated value has in a larger document (`env`, `backends.openai`), put
   * in front of every path, so each problem names the key as the user wrote it.
   */
  pathPrefix?: string;
}

/**
 * One line for all of a validation's problems (of a ZodError or its `issues`), `path: message;
 * path: message`. A single line, because these messages land in a terminal, a JSON report or an
 * error's `message`, where zod's own multi-line format is hard to read. A problem of the value as
 * a whole has no path: it reads `prefix: message`, or the bare message without a prefix.
 */
export function formatZodIssues(
  problems: { readonly issues: readonly ValidationIssue[] } | readonly ValidationIssue[],
  options: FormatZodIssuesOptions = {},
): string {
  const issues = 'issues' in problems ? problems.issues : problems;
  return issues
    .map((issue) => {
      const path = [...(options.pathPrefix ? [options.pathPrefix] : []), ...issue.path.map((segment) => String(segment))].join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}
