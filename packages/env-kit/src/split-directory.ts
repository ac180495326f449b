import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SPLIT_NAMES, type SplitName, type TaskItem } from '@skillopt/contract';
import { createDataInvalidError } from './data-invalid-error.js';
import type { ItemsFileOptions } from './items-file-text.js';
import { loadItemsFile, type TaskItemMapper } from './task-item-mapping.js';

/**
 * The places a split may live under a split root, in the order they are looked for. Exactly one
 * must exist: two candidates for the same split (say `train/items.json` and `train.jsonl`) is an
 * error rather than a silent pick, because the two may disagree.
 *
 *   <root>/<split>/items.json    a JSON array (the original's materialised layout)
 *   <root>/<split>/items.jsonl   JSON Lines
 *   <root>/<split>.json          a JSON array
 *   <root>/<split>.jsonl         JSON Lines
 *
 * `<split>` is exactly `train`, `val` or `test`. Other names (`valid`, `dev`, `validation`) and other
 * file names inside a split folder are not looked for: an unrecognised layout fails loudly instead
 * of loading the wrong file.
 */
export function splitFileCandidates(root: string, split: SplitName): string[] {
  return [path.join(root, split, 'items.json'), path.join(root, split, 'items.jsonl'), path.join(root, `${split}.json`), path.join(root, `${split}.jsonl`)];
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The one file that holds `split` under `root` (see `splitFileCandidates` for the layouts). */
export async function resolveSplitFile(root: string, split: SplitName): Promise<string> {
  if (!(SPLIT_NAMES as readonly string[]).includes(split)) {
    throw createDataInvalidError(`unknown split "${String(split)}"; expected one of ${SPLIT_NAMES.join(', ')}`, { split });
  }
  const candidates = splitFileCandidates(root, split);
  const found: string[] = [];
  for (const candidate of candidates) if (await isFile(candidate)) found.push(candidate);
  if (found.length === 1 && found[0] !== undefined) return found[0];
  if (found.length === 0) {
    throw createDataInvalidError(`no ${split} split under ${root}; looked for ${candidates.join(', ')}`, {
      root,
      split,
      candidates,
    });
  }
  throw createDataInvalidError(`the ${split} split under ${root} is ambiguous: ${found.join(' and ')} all exist; keep one`, {
    root,
    split,
    found,
  });
}

/** Loads one split from a split root, mapping each raw item through `mapper`. */
export async function loadSplitItems<Item extends TaskItem>(
  root: string,
  split: SplitName,
  mapper: TaskItemMapper<Item>,
  options: ItemsFileOptions = {},
): Promise<Item[]> {
  return loadItemsFile(await resolveSplitFile(root, split), mapper, options);
}

/**
 * Loads train, val and test from one split root. An id that appears in two splits is rejected: it
 * would leak a training item into selection or test, and ids key per-item artifacts across a run.
 */
export async function loadSplitDirectory<Item extends TaskItem>(
  root: string,
  mapper: TaskItemMapper<Item>,
  options: ItemsFileOptions = {},
): Promise<Record<SplitName, Item[]>> {
  const splits = {} as Record<SplitName, Item[]>;
  const splitById = new Map<string, SplitName>();
  for (const split of SPLIT_NAMES) {
    const items = await loadSplitItems(root, split, mapper, options);
    for (const item of items) {
      const earlier = splitById.get(item.id);
      if (earlier !== undefined) {
        throw createDataInvalidError(`id "${item.id}" is in both the ${earlier} and the ${split} split under ${root}`, {
          root,
          id: item.id,
          splits: [earlier, split],
        });
      }
      splitById.set(item.id, split);
    }
    splits[split] = items;
  }
  return splits;
}
