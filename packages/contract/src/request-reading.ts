import type { z } from 'zod';
import type { CallWarning } from './call-warning.js';

/** A request as an implementation reads it: usable, with what it did not know as warnings. */
export type RequestReading<Request> = { ok: true; request: Request; warnings: CallWarning[] } | { ok: false; problems: string[] };

/**
 * The one tolerant reading of a request (a generate call, an agent run): checked against the
 * strict schema, fields of the wrong type are problems, and fields the schema does not know are
 * left out of the request and reported as `unknown-field` warnings. `reader` names the
 * implementation in the warning (`model`, `runner`).
 */
export function readRequest<Request>(schema: z.ZodType, input: unknown, reader: string): RequestReading<Request> {
  const checked = schema.safeParse(input);
  if (checked.success) return { ok: true, request: input as Request, warnings: [] };
  const unknownFields: string[][] = [];
  const problems: string[] = [];
  for (const issue of checked.error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) unknownFields.push([...issue.path.map(String), key]);
    else problems.push(`${issue.path.join('.') || '(request)'}: ${issue.message}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const request = withoutFields(input, unknownFields) as Request;
  const warnings = unknownFields.map(
    (path): CallWarning => ({
      type: 'unknown-field',
      field: path.join('.'),
      message: `the request field \`${path.join('.')}\` is not part of the contract this ${reader} was built against; it was ignored`,
    }),
  );
  return { ok: true, request, warnings };
}

/** A copy of `value` without the fields at `paths` (each a list of keys and array indexes). */
function withoutFields(value: unknown, paths: readonly string[][]): unknown {
  const copy = copyPlainData(value);
  for (const path of paths) {
    let holder: unknown = copy;
    for (const key of path.slice(0, -1)) holder = (holder as Record<string, unknown>)?.[key];
    if (typeof holder === 'object' && holder !== null) delete (holder as Record<string, unknown>)[path[path.length - 1]!];
  }
  return copy;
}

/** A deep copy of plain data that keeps an AbortSignal (and other class instances, such as a file's bytes) by reference. */
function copyPlainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyPlainData);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = copyPlainData(item);
  return copy;
}
