import path from 'node:path';
import { z } from 'zod';

/** A path that does not depend on the working directory of whoever reads the file later. */
export const absolutePathSchema = z.string().refine((value) => path.isAbsolute(value), 'must be an absolute path');

export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lowercase hex');

/** A name directly inside a folder: no separator, so a damaged file cannot point outside it. */
export const plainFileNameSchema = z
  .string()
  .min(1)
  .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'must be a plain file name, without separators');

/**
 * The text of the JSON files staging and adoption keep (manifest, receipt, journal). They hold
 * paths and hashes that must read back exactly, so they bypass core's secret redaction
 * (writeJsonAtomic), which could rewrite a path that happens to look like a credential.
 */
export function exactJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
