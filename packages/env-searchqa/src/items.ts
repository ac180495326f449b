import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SplitName, TaskItem } from '@skillopt/contract';
import {
  createDataInvalidError,
  JSON_ARRAY_EXTENSIONS,
  JSON_LINES_EXTENSIONS,
  loadSplitItems,
  mapRawItems,
  readRawItemsFile,
  splitByRatio,
  writeSplitDirectory,
} from '@skillopt/env-kit';
import { z } from 'zod';
import type { SearchQaConfig } from './config.js';

/** SearchQA has one kind of task: answer an open-domain question. */
export const SEARCHQA_TASK_TYPE = 'qa';

/** The answer shapes of the demo set (datasets/demo); `answer_type` is optional in other data. */
export const DEMO_ANSWER_TYPES = ['number', 'date', 'quantity', 'person_surname', 'name', 'multiword_name'] as const;
export type DemoAnswerType = (typeof DEMO_ANSWER_TYPES)[number];

const nonBlank = (what: string) => z.string().refine((text) => text.trim() !== '', `${what} must not be blank`);

/**
 * One SearchQA item as materialised on disk: `{id, question, context, answers}` (the original's
 * format), with `context` optional (question-only sets such as the demo) and an optional
 * `answer_type` label. Ids may be numbers in hand-made files; they are read as strings.
 */
export const searchQaRawItemSchema = z.object({
  id: z.union([nonBlank('id'), z.int().transform(String)]),
  question: nonBlank('question'),
  context: z.string().nullish(),
  answers: z.array(nonBlank('each answer')).min(1, 'answers must hold at least one gold answer'),
  answer_type: nonBlank('answer_type').optional(),
});
export type SearchQaRawItem = z.input<typeof searchQaRawItemSchema>;

/**
 * The TaskItem a SearchQA item becomes: `references` are the gold answers (the first is the
 * canonical one), `context` the search snippets when the item has them, and `answer_type` passes
 * through under its own name when present.
 */
export interface SearchQaTaskItem extends TaskItem {
  taskType: typeof SEARCHQA_TASK_TYPE;
  question: string;
  references: string[];
  context?: string;
  answer_type?: string;
}

/** The zod mapper from the on-disk item to a TaskItem, for env-kit's loaders. */
export const searchQaItemMapper: z.ZodType<SearchQaTaskItem> = searchQaRawItemSchema.transform((raw) => {
  const item: SearchQaTaskItem = {
    id: raw.id,
    taskType: SEARCHQA_TASK_TYPE,
    question: raw.question.trim(),
    references: raw.answers.map((answer) => answer.trim()),
  };
  if (typeof raw.context === 'string' && raw.context.trim() !== '') item.context = raw.context;
  if (raw.answer_type !== undefined) item.answer_type = raw.answer_type;
  return item;
}) as unknown as z.ZodType<SearchQaTaskItem>;

/** Loads one split from a split root (any layout env-kit accepts). */
export function loadSearchQaSplitDirectory(splitDirectory: string, split: SplitName): Promise<SearchQaTaskItem[]> {
  return loadSplitItems(splitDirectory, split, searchQaItemMapper);
}

const POOL_EXTENSIONS: readonly string[] = [...JSON_ARRAY_EXTENSIONS, ...JSON_LINES_EXTENSIONS];

/** `data_path` as a file, or the one `.json`/`.jsonl` file inside it when it is a directory. */
export async function resolvePoolFile(dataPath: string): Promise<string> {
  let info;
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
 * in another split), shuffles with env-kit's seeded shuffle and cuts train/val/test by
 * largest-remainder counts. With `split_output_dir` the raw items are also written there in the
 * split-directory layout, with a `split_manifest.json`, so the split can be inspected and reused.
 */
export async function loadSearchQaRatioSplits(config: SearchQaConfig): Promise<Record<SplitName, SearchQaTaskItem[]>> {
  const poolFile = await resolvePoolFile(config.data_path);
  const rawItems = await readRawItemsFile(poolFile);
  const items = mapRawItems(rawItems, searchQaItemMapper);
  const pairs = rawItems.map((raw, index) => ({ raw: raw.value, item: items[index] as SearchQaTaskItem }));
  const split = splitByRatio(pairs, { ratio: config.split_ratio, seed: config.split_seed });
  if (config.split_output_dir.trim() !== '') {
    await writeSplitDirectory(
      config.split_output_dir,
      { train: split.train.map((pair) => pair.raw), val: split.val.map((pair) => pair.raw), test: split.test.map((pair) => pair.raw) },
      {
        manifest: {
          source_data_path: poolFile,
          split_mode: 'ratio',
          split_ratio: config.split_ratio,
          split_seed: config.split_seed,
          counts: { train: split.train.length, val: split.val.length, test: split.test.length },
        },
      },
    );
  }
  return {
    train: split.train.map((pair) => pair.item),
    val: split.val.map((pair) => pair.item),
    test: split.test.map((pair) => pair.item),
  };
}
