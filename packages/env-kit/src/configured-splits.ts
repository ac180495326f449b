import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SplitName, TaskItem } from '@skillopt/contract';
import { z } from 'zod';
import { createDataInvalidError } from './data-invalid-error.js';
import { DEFAULT_MAX_ITEMS_FILE_BYTES } from './items-file-text.js';
import { parseSplitRatio, splitByRatio } from './ratio-split.js';
import { JSON_ARRAY_EXTENSIONS, JSON_LINES_EXTENSIONS, readRawItemsFile } from './raw-items-file.js';
import { loadSplitItems } from './split-directory.js';
import { writeSplitDirectory } from './split-directory-writing.js';
import { mapRawItems, type TaskItemMapper } from './task-item-mapping.js';

/**
 * The split keys every benchmark's `env` section shares, in the original's snake_case names: spread
 * them into an env's strict config schema and add `checkSplitSettings` to its refinement.
 */
export const splitSettingsShape = {
  /** `split_dir`: train/val/test already materialised under `split_dir`. `ratio`: cut one pool (`data_path`). */
  split_mode: z.enum(['split_dir', 'ratio']).default('split_dir'),
  /** A split root: `<split>/items.json`, `<split>/items.jsonl`, `<split>.json` or `<split>.jsonl`. */
  split_dir: z.string().default(''),
  /** Ratio mode: one `.json` (array) or `.jsonl` file of items, or a directory holding exactly one. */
  data_path: z.string().default(''),
  /** Ratio mode: train:val:test weights, e.g. "2:1:7". */
  split_ratio: z.string().default('2:1:7'),
  /** Ratio mode: the shuffle seed. */
  split_seed: z.int().default(42),
  /** Ratio mode: when set, the split is also written there (`<split>/items.json` + `split_manifest.json`). */
  split_output_dir: z.string().default(''),
  /** Keep only the first `limit` items of each split; 0 keeps all. */
  limit: z.int().nonnegative().default(0),
  /** The largest split or pool file read, in bytes: a larger one is an error naming the file, before it is read. */
  max_items_file_bytes: z.int().positive().default(DEFAULT_MAX_ITEMS_FILE_BYTES),
};

export type SplitSettings = { [Key in keyof typeof splitSettingsShape]: z.output<(typeof splitSettingsShape)[Key]> };

/** The checks that tie the split keys together; call it from the env schema's superRefine. */
export function checkSplitSettings(settings: SplitSettings, context: z.RefinementCtx): void {
  if (settings.split_mode === 'split_dir' && settings.split_dir.trim() === '')
    context.addIssue({ code: 'custom', path: ['split_dir'], message: 'split_mode is split_dir, so split_dir must name the split root' });
  if (settings.split_mode !== 'ratio') return;
  if (settings.data_path.trim() === '')
    context.addIssue({ code: 'custom', path: ['data_path'], message: 'split_mode is ratio, so data_path must name the item pool' });
  try {
    parseSplitRatio(settings.split_ratio);
  } catch (error) {
    context.addIssue({ code: 'custom', path: ['split_ratio'], message: (error as Error).message });
  }
}

const POOL_EXTENSIONS: readonly string[] = [...JSON_ARRAY_EXTENSIONS, ...JSON_LINES_EXTENSIONS];

/** `data_path` as a file, or the one `.json`/`.jsonl` file inside it when it is a directory. */
export async function resolvePoolFile(dataPath: string): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dataPath);
  } catch (error) {
    throw createDataInvalidError(`data_path ${dataPath} does not exist`, { dataPath }, error);
  }
  if (info.isFile()) return dataPath;
  const candidates = (await readdir(dataPath)).filter((name) => POOL_EXTENSIONS.includes(path.extname(name).toLowerCase())).sort();
  if (candidates.length === 1 && candidates[0] !== undefined) return path.join(dataPath, candidates[0]);
  throw createDataInvalidError(
    candidates.length === 0
      ? `data_path ${dataPath} is a directory without a .json or .jsonl file`
      : `data_path ${dataPath} holds several item files (${candidates.join(', ')}); name one`,
    { dataPath, candidates },
  );
}

/**
 * Ratio mode: reads the pool, checks every item (so a bad item is reported even when it would land
 * in another split), shuffles with the seeded shuffle and cuts train/val/test by largest-remainder
 * counts. With `split_output_dir` the raw items are also written there in the split-directory
 * layout, with a `split_manifest.json`, so the split can be inspected and reused.
 */
export async function loadRatioSplits<Item extends TaskItem>(
  settings: SplitSettings,
  mapper: TaskItemMapper<Item>,
  options: SplitSourceOptions<Item> = {},
): Promise<Record<SplitName, Item[]>> {
  const poolFile = await resolvePoolFile(settings.data_path);
  const rawItems = await readRawItemsFile(poolFile, { maxBytes: settings.max_items_file_bytes });
  const items = mapRawItems(rawItems, mapper);
  const written = options.writtenRaw ?? ((raw: unknown) => raw);
  const pairs = rawItems.map((raw, index) => ({ raw: written(raw.value, items[index] as Item), item: items[index] as Item }));
  const split = splitByRatio(pairs, { ratio: settings.split_ratio, seed: settings.split_seed });
  if (settings.split_output_dir.trim() !== '') {
    const rawOf = (name: SplitName) => split[name].map((pair) => pair.raw);
    await writeSplitDirectory(
      settings.split_output_dir,
      { train: rawOf('train'), val: rawOf('val'), test: rawOf('test') },
      {
        manifest: {
          source_data_path: poolFile,
          split_mode: 'ratio',
          split_ratio: settings.split_ratio,
          split_seed: settings.split_seed,
          counts: { train: split.train.length, val: split.val.length, test: split.test.length },
        },
      },
    );
  }
  return { train: split.train.map((pair) => pair.item), val: split.val.map((pair) => pair.item), test: split.test.map((pair) => pair.item) };
}

export interface SplitSourceOptions<Item extends TaskItem> {
  /**
   * Ratio mode with `split_output_dir`: what is written for each item, from its raw form and the
   * item it became (e.g. with file paths made absolute, so the written split loads from anywhere).
   * Default: the raw item unchanged.
   */
  writtenRaw?: (raw: unknown, item: Item) => unknown;
}

export interface SplitSource<Item extends TaskItem> {
  /** The items of one split, after `limit`; a fresh array on every call. */
  load(split: SplitName): Promise<Item[]>;
}

/**
 * What an env's `loadSplit` needs for the shared split keys: relative paths resolved once against
 * the working directory, a split root read per split, a ratio pool read and cut once (a failed read
 * is not remembered, so the next call tries again), and `limit` applied.
 */
export function createSplitSource<Item extends TaskItem>(
  settings: SplitSettings,
  mapper: TaskItemMapper<Item>,
  options: SplitSourceOptions<Item> = {},
): SplitSource<Item> {
  const resolve = (file: string): string => (file.trim() === '' ? file : path.resolve(file));
  const resolved: SplitSettings = {
    ...settings,
    split_dir: resolve(settings.split_dir),
    data_path: resolve(settings.data_path),
    split_output_dir: resolve(settings.split_output_dir),
  };
  let ratioSplits: Promise<Record<SplitName, Item[]>> | undefined;
  const loadAll = async (split: SplitName): Promise<Item[]> => {
    if (resolved.split_mode === 'split_dir') return loadSplitItems(resolved.split_dir, split, mapper, { maxBytes: resolved.max_items_file_bytes });
    if (ratioSplits === undefined) {
      const loading = loadRatioSplits(resolved, mapper, options);
      ratioSplits = loading;
      loading.catch(() => {
        if (ratioSplits === loading) ratioSplits = undefined;
      });
    }
    return [...(await ratioSplits)[split]];
  };
  return {
    async load(split) {
      const items = await loadAll(split);
      return resolved.limit > 0 ? items.slice(0, resolved.limit) : items;
    },
  };
}
