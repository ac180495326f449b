// Shared by the materializers that read the paper's split manifests (datasets/<benchmark>/paper-split)
// and write a runnable split: reading JSON, reading the manifest, and writing files atomically.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MaterializeError } from './csv.mjs';

export const SPLITS = ['train', 'val', 'test'];

/** A JSON file (a byte-order mark allowed); an unreadable or invalid one is a MaterializeError. */
export function readJsonFile(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MaterializeError(`cannot read ${file}: ${error.message}`);
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new MaterializeError(`${file} is not valid JSON: ${error.message}`);
  }
}

/**
 * The manifest's entries per split (`<split>/items.json`, arrays of `{id, …}`), checked: every entry
 * has an id and no id appears twice. `ids` maps each id to its split.
 */
export function readPaperManifest(manifestDir) {
  const splits = {};
  const ids = new Map();
  for (const split of SPLITS) {
    const file = path.join(manifestDir, split, 'items.json');
    if (!existsSync(file)) throw new MaterializeError(`the manifest has no ${split} split: ${file} does not exist`);
    const entries = readJsonFile(file);
    if (!Array.isArray(entries)) throw new MaterializeError(`${file} must hold a JSON array of {id, …} entries`);
    splits[split] = entries.map((entry, index) => {
      const id = entry === null || typeof entry !== 'object' ? undefined : entry.id;
      if (typeof id !== 'string' || id.trim() === '') throw new MaterializeError(`${file} index ${index}: an entry without an id`);
      if (ids.has(id)) throw new MaterializeError(`${file} index ${index}: id ${JSON.stringify(id)} is also in the ${ids.get(id)} split`);
      ids.set(id, split);
      return entry;
    });
  }
  return { splits, ids };
}

/** The first `limit` values, and how many more there are: for messages that list what is missing. */
export function listSome(values, limit = 15) {
  return values.length <= limit ? values.join(', ') : `${values.slice(0, limit).join(', ')}, … (${values.length - limit} more)`;
}

/** 2-space JSON written to a temporary file and renamed, so a reader never sees half a file. */
export function writeJsonAtomically(file, value) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
  renameSync(temporary, file);
}
