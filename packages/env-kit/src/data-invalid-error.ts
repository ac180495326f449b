import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * Where a raw item came from, so an error can send the reader straight to it: the file, the
 * item's position in that file (0-based, as in the JSON array), and for JSONL its 1-based line.
 */
export interface ItemSource {
  file: string;
  index: number;
  line?: number;
}

/** `items.jsonl line 4 (index 3)` or `items.json index 3`: the shortest text that locates an item. */
export function describeItemSource(source: ItemSource): string {
  return source.line === undefined ? `${source.file} index ${source.index}` : `${source.file} line ${source.line} (index ${source.index})`;
}

/**
 * Split data is the user's input (they chose the files), so every shape problem is a `data-invalid`
 * error in the `user` category: not retryable, and reported as something the user can fix.
 */
export function createDataInvalidError(message: string, details: Record<string, unknown>, cause?: unknown): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.dataInvalid,
    category: 'user',
    message,
    details,
    ...(cause === undefined ? {} : { cause }),
  });
}

// One line for every zod issue: the formatting every package shares, re-exported for env authors.
export { formatZodIssues } from '@skillopt/runtime-kit';

/** True for the `data-invalid` errors of the split loaders, so callers can tell bad data from bugs. */
export function isDataInvalidError(error: unknown): error is SkillOptError {
  return SkillOptError.isInstance(error) && error.code === ERROR_CODES.dataInvalid;
}
