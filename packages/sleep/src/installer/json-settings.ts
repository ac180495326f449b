import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { jsonSyntaxErrorOffset } from '../sources/devin/json-syntax-error.js';

/**
 * A runtime's JSON settings file, merged without clobbering: the installer sets only keys it owns
 * and appends only elements it owns, and takes out exactly those again. Everything here works on
 * the parsed object; the file is read once and written once, atomically, by the caller.
 */
export type JsonObject = Record<string, unknown>;

export interface SettingsFile {
  /** The parsed object; `{}` when the file does not exist. */
  value: JsonObject;
  existed: boolean;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function malformed(file: string, reason: string): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `${file} ${reason}; nothing was written. Fix the file (or move it away), then install again.`,
  });
}

/** The settings file as an object; a file that is not a JSON object is an error that names where it breaks, and is left as it is. */
export async function readSettingsFile(file: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { value: {}, existed: false };
    throw error;
  }
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { value: {}, existed: true };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const offset = jsonSyntaxErrorOffset(body);
    throw malformed(file, `is not valid JSON (${offset === undefined ? 'unreadable' : lineAndColumn(body, offset)})`);
  }
  if (!isObject(value)) throw malformed(file, 'does not hold a JSON object');
  return { value, existed: true };
}

/** The parent object of `path`'s last key, made on the way when `create`; undefined when a step is not an object. */
function parentOf(root: JsonObject, path: readonly string[], create: boolean, file: string): JsonObject | undefined {
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined && create) {
      const made: JsonObject = {};
      node[key] = made;
      node = made;
    } else if (isObject(next)) node = next;
    else if (create) throw malformed(file, `has ${path.join('.')} under a value that is not an object`);
    else return undefined;
  }
  return node;
}

const lastKey = (path: readonly string[]): string => path[path.length - 1] as string;

/** The value at `path`, or undefined. */
export function valueAt(root: JsonObject, path: readonly string[]): unknown {
  return parentOf(root, path, false, '')?.[lastKey(path)];
}

/** Sets `path` to `value`; returns what was there before. */
export function setValueAt(root: JsonObject, path: readonly string[], value: unknown, file: string): unknown {
  const parent = parentOf(root, path, true, file) as JsonObject;
  const previous = parent[lastKey(path)];
  parent[lastKey(path)] = value;
  return previous;
}

/** Adds `value` to the array at `path` unless an equal element is there; whether it was added. */
export function appendValueAt(root: JsonObject, path: readonly string[], value: unknown, file: string): boolean {
  const parent = parentOf(root, path, true, file) as JsonObject;
  const existing = parent[lastKey(path)];
  if (existing === undefined) {
    parent[lastKey(path)] = [value];
    return true;
  }
  if (!Array.isArray(existing)) throw malformed(file, `has ${path.join('.')}, which is not an array`);
  if (existing.some((element) => isDeepStrictEqual(element, value))) return false;
  existing.push(value);
  return true;
}

/** Removes the key at `path`, then every object on the way that this left empty. */
export function deleteValueAt(root: JsonObject, path: readonly string[]): void {
  const parents: JsonObject[] = [root];
  for (const key of path.slice(0, -1)) {
    const next = (parents.at(-1) as JsonObject)[key];
    if (!isObject(next)) return;
    parents.push(next);
  }
  delete (parents.at(-1) as JsonObject)[lastKey(path)];
  for (let depth = path.length - 1; depth > 0; depth -= 1) {
    const parent = parents[depth] as JsonObject;
    if (Object.keys(parent).length > 0) break;
    delete (parents[depth - 1] as JsonObject)[path[depth - 1] as string];
  }
}

/** Removes one element equal to `value` from the array at `path` (and the array, if that empties it); whether one was there. */
export function removeElementAt(root: JsonObject, path: readonly string[], value: unknown): boolean {
  const array = valueAt(root, path);
  if (!Array.isArray(array)) return false;
  const index = array.findIndex((element) => isDeepStrictEqual(element, value));
  if (index < 0) return false;
  array.splice(index, 1);
  if (array.length === 0) deleteValueAt(root, path);
  return true;
}

/** The text a settings file is written as: two-space JSON and a final newline, as the runtimes write theirs. */
export function settingsText(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
