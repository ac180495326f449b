import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isFileNotFound } from '@skillopt/core';

/** The SHA-256 of `content`'s bytes (a text's UTF-8), in lowercase hex: what staging pins and adoption checks. */
export function sha256Of(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The bytes of a file, or undefined when there is no file at `filePath`. */
export async function readFileIfPresent(filePath: string): Promise<Buffer | undefined> {
  try {
    return await readFile(filePath);
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    throw error;
  }
}

/** The SHA-256 of a file's bytes, or null when it does not exist (the pin of "there was no file"). */
export async function fileSha256(filePath: string): Promise<string | null> {
  const bytes = await readFileIfPresent(filePath);
  return bytes === undefined ? null : sha256Of(bytes);
}
