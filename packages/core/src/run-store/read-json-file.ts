import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isFileNotFound, runFileError } from './run-file-error.js';

export interface ReadJsonFileOptions {
  /** What the file is, for the error message: "the runtime state", "the ledger". */
  description?: string;
  /** What the user can do when the file is unusable; a generic remedy otherwise. */
  remedy?: string;
}

/**
 * Reads and validates a JSON file. Every way it can fail (missing, unreadable, not JSON, not the
 * expected shape) is an error that names the file and the problem — with zod's field paths for a
 * wrong shape — rather than a bare SyntaxError from deep inside a resume.
 */
export async function readJsonFile<Schema extends z.ZodType>(filePath: string, schema: Schema, options: ReadJsonFileOptions = {}): Promise<z.infer<Schema>> {
  const value = await readJsonFileIfExists(filePath, schema, options);
  if (value === undefined)
    throw runFileError({ filePath, problem: `does not exist${describe(options)}`, remedy: options.remedy ?? 'Check the run directory path.' });
  return value;
}

/** Like readJsonFile, but a missing file gives undefined (a fresh run has no state yet). */
export async function readJsonFileIfExists<Schema extends z.ZodType>(
  filePath: string,
  schema: Schema,
  options: ReadJsonFileOptions = {},
): Promise<z.infer<Schema> | undefined> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    throw runFileError({ filePath, problem: `cannot be read${describe(options)} (${errorText(error)})`, remedy: options.remedy, cause: error });
  }
  return parseJsonText(filePath, text, schema, options);
}

/** Validates JSON text that was read from `filePath`; see readJsonFile. */
export function parseJsonText<Schema extends z.ZodType>(filePath: string, text: string, schema: Schema, options: ReadJsonFileOptions = {}): z.infer<Schema> {
  if (text.trim() === '') throw runFileError({ filePath, problem: `is empty${describe(options)}`, remedy: options.remedy });
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw runFileError({ filePath, problem: `is not valid JSON${describe(options)} (${errorText(error)})`, remedy: options.remedy, cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw runFileError({
      filePath,
      problem: `does not have the expected shape${describe(options)}:\n${z.prettifyError(parsed.error)}\n`,
      remedy: options.remedy,
      cause: parsed.error,
    });
  return parsed.data;
}

function describe(options: ReadJsonFileOptions): string {
  return options.description === undefined ? '' : ` (${options.description})`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
