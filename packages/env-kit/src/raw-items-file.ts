import path from 'node:path';
import { createDataInvalidError, type ItemSource } from './data-invalid-error.js';
import { type ItemsFileOptions, readItemsFileText } from './items-file-text.js';

/** One value read from a split file, before any mapping, with the place it came from. */
export interface RawItem {
  value: unknown;
  source: ItemSource;
}

/** The file extensions `readRawItemsFile` understands, and how it reads each. */
export const JSON_ARRAY_EXTENSIONS = ['.json'] as const;
export const JSON_LINES_EXTENSIONS = ['.jsonl', '.ndjson'] as const;

/** Reads a file holding one JSON array of items (the `items.json` format). */
export async function readJsonArrayFile(file: string, options: ItemsFileOptions = {}): Promise<RawItem[]> {
  const text = await readItemsFileText(file, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw createDataInvalidError(`${file} is not valid JSON: ${(error as Error).message}`, { file }, error);
  }
  if (!Array.isArray(parsed)) {
    const found = parsed === null ? 'null' : typeof parsed;
    throw createDataInvalidError(`${file} must hold a JSON array of items, found ${found}`, { file });
  }
  return parsed.map((value: unknown, index) => ({ value, source: { file, index } }));
}

/**
 * Reads a JSON Lines file: one JSON value per line. Blank lines are allowed (a trailing newline is
 * common); any other line that does not parse is an error naming the file and line, never skipped,
 * because a silently dropped item changes every score computed on the split.
 */
export async function readJsonLinesFile(file: string, options: ItemsFileOptions = {}): Promise<RawItem[]> {
  const text = await readItemsFileText(file, options);
  const items: RawItem[] = [];
  const lines = text.split(/\r?\n/);
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex += 1) {
    const line = lines[lineIndex] ?? '';
    if (line.trim() === '') continue;
    const lineNumber = lineIndex + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw createDataInvalidError(`${file} line ${lineNumber} is not valid JSON: ${(error as Error).message}`, { file, line: lineNumber }, error);
    }
    items.push({ value, source: { file, index: items.length, line: lineNumber } });
  }
  return items;
}

/**
 * Reads `.json` as a JSON array and `.jsonl` / `.ndjson` as JSON Lines; any other extension is an
 * error. Every reader refuses a file over `options.maxBytes` and bytes that are not UTF-8
 * (`readItemsFileText`).
 */
export async function readRawItemsFile(file: string, options: ItemsFileOptions = {}): Promise<RawItem[]> {
  const extension = path.extname(file).toLowerCase();
  if ((JSON_ARRAY_EXTENSIONS as readonly string[]).includes(extension)) return readJsonArrayFile(file, options);
  if ((JSON_LINES_EXTENSIONS as readonly string[]).includes(extension)) return readJsonLinesFile(file, options);
  throw createDataInvalidError(`${file}: unsupported split file type "${extension}"; use .json (an array) or .jsonl (one item per line)`, { file });
}
