import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { z } from 'zod';

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
  return source.line === undefined
    ? `${source.file} index ${source.index}`
    : `${source.file} line ${source.line} (index ${source.index})`;
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

/**
 * One line per zod issue, `path: message`, because a split error lands in a terminal or a JSON
 * report where zod's own multi-line pretty format is hard to read.
 */
export function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map((segment) => String(segment)).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** True for the `data-invalid` errors of the split loaders, so callers can tell bad data from bugs. */
export function isDataInvalidError(error: unknown): error is SkillOptError {
  return SkillOptError.isInstance(error) && error.code === ERROR_CODES.dataInvalid;
}
