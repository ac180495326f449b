import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SplitName, TaskItem } from '@skillopt/contract';
import {
  createDataInvalidError,
  type ItemsFileOptions,
  JSON_LINES_EXTENSIONS,
  loadSplitItems,
  mapRawItems,
  readItemsFileText,
  readJsonLinesFile,
  seededShuffle,
  splitByRatio,
  writeSplitDirectory,
  type RawItem,
} from '@skillopt/env-kit';
import { z } from 'zod';
import type { LiveMathConfig } from './config.js';

/**
 * Every LiveMathematicianBench item is one kind of task: pick the one true statement among several.
 * The benchmark's own `theorem_type` labels are free-form and only known once the data is read, so
 * they travel as the item field `theorem_types` (and in each result's details), not as task types.
 */
export const LIVEMATH_TASK_TYPE = 'math_mcq';

/** The labels a choice may carry, in order. */
export const CHOICE_LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** One option of a question: a single upper-case letter and its text. */
export interface LiveMathChoice {
  label: string;
  text: string;
}

/**
 * The TaskItem a LiveMath item becomes. `references` holds the correct choice twice over: its
 * label first (what the target is asked to answer, and what the simulated model reads as the gold
 * answer), then its text, so an answer of either kind can be recognised. `choices` are in the order
 * the target sees them; after `loadSplit` with `shuffle_choices` on, that is the shuffled order,
 * relabelled A, B, C, … (and `references` follow it).
 */
export interface LiveMathTaskItem extends TaskItem {
  taskType: typeof LIVEMATH_TASK_TYPE;
  question: string;
  references: string[];
  choices: LiveMathChoice[];
  /** The benchmark's `theorem_type` labels (a string in some rows, a list in others; always a list here). */
  theorem_types: string[];
  theorem?: string;
  sketch?: string;
  month?: string;
  no?: number | string;
  paper_link?: string;
}

/**
 * Reads a choice label the lenient way: trimmed, upper-cased, without a leading `(`/`[` or trailing
 * `.`, `)`, `]`, `:` ("b)" and "(B)" are both "B"). Returns undefined unless one letter is left.
 */
export function normaliseChoiceLabel(label: unknown): string | undefined {
  if (typeof label !== 'string') return undefined;
  const letter = label
    .trim()
    .toUpperCase()
    .replace(/^[([]+\s*/, '')
    .replace(/\s*[.)\]:]+$/, '')
    .trim();
  return /^[A-Z]$/.test(letter) ? letter : undefined;
}

const looseText = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();

const textish = z.union([z.string(), z.number().transform(String)]);

/**
 * The fields of one item as stored: either the normalised form a materialised split holds
 * (`{id, month, no, paper_link, theorem, sketch, theorem_type, question, choices, correct_choice,
 * source_path}`) or a row of the benchmark's raw monthly `qa_<YYYYMM>_final.json` files, whose
 * question, choices and answer may sit inside an `mcq` object. Other fields are ignored.
 */
const rawItemShape = z.object({
  id: z.union([z.string(), z.int().transform(String)]).optional(),
  month: textish.nullish(),
  no: z.union([z.int(), z.string()]).nullish(),
  paper_link: z.string().nullish(),
  theorem: z.string().nullish(),
  sketch: z.string().nullish(),
  theorem_type: z.union([z.string(), z.array(z.string())]).nullish(),
  question: z.string().nullish(),
  choices: z.unknown().optional(),
  correct_choice: z.unknown().optional(),
  mcq: z
    .object({
      question: z.string().nullish(),
      choices: z.unknown().optional(),
      correct_choice: z.unknown().optional(),
    })
    .nullish(),
});
type RawItemShape = z.output<typeof rawItemShape>;

/** An item as written on disk, before normalisation (for hand-made files and tests). */
export type LiveMathRawItem = z.input<typeof rawItemShape>;

interface Problem {
  path: string[];
  message: string;
}

/** The choices in any of the benchmark's three forms: a list of texts, a list of `{label, text|content}`, or `{label: text}`. */
function readChoices(value: unknown, problems: Problem[]): LiveMathChoice[] {
  const entries: Array<{ rawLabel: unknown; text: unknown; where: string[] }> = [];
  let sortByLabel = false;
  if (Array.isArray(value)) {
    value.forEach((entry: unknown, index) => {
      if (typeof entry === 'string' || typeof entry === 'number') {
        entries.push({ rawLabel: CHOICE_LABELS[index], text: String(entry), where: ['choices', String(index)] });
      } else if (entry !== null && typeof entry === 'object') {
        const record = entry as Record<string, unknown>;
        const label = record.label ?? CHOICE_LABELS[index];
        const text = record.text ?? record.content;
        entries.push({ rawLabel: label, text: typeof text === 'number' ? String(text) : text, where: ['choices', String(index)] });
      } else {
        problems.push({ path: ['choices', String(index)], message: 'a choice must be a text or a {label, text} object' });
      }
    });
  } else if (value !== null && typeof value === 'object') {
    sortByLabel = true;
    for (const [label, text] of Object.entries(value as Record<string, unknown>)) {
      entries.push({ rawLabel: label, text: typeof text === 'number' ? String(text) : text, where: ['choices', label] });
    }
  } else {
    problems.push({ path: ['choices'], message: 'choices must be a list (of texts or {label, text} objects) or an object from label to text' });
    return [];
  }
  const choices: LiveMathChoice[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const label = normaliseChoiceLabel(entry.rawLabel);
    if (label === undefined) {
      problems.push({ path: entry.where, message: `the label ${JSON.stringify(entry.rawLabel)} is not a single letter` });
      continue;
    }
    if (seen.has(label)) {
      problems.push({ path: entry.where, message: `the label ${label} is used twice` });
      continue;
    }
    if (typeof entry.text !== 'string' || entry.text.trim() === '') {
      problems.push({ path: entry.where, message: `choice ${label} has no text` });
      continue;
    }
    seen.add(label);
    choices.push({ label, text: entry.text.trim() });
  }
  if (sortByLabel) choices.sort((left, right) => left.label.localeCompare(right.label));
  return choices;
}

/**
 * The correct choice's label. `correct_choice` is a label ("B", "b.", "(B)"), a `{label, text}`
 * object, or (leniently) the text of one choice. A correct label missing from the choices is added
 * when its text is known, and the choices re-sorted by label, as the original did.
 */
function readCorrectLabel(value: unknown, choices: LiveMathChoice[], problems: Problem[]): string | undefined {
  let label: string | undefined;
  let text: string | undefined;
  if (typeof value === 'string') {
    label = normaliseChoiceLabel(value);
    if (label === undefined) text = value;
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    label = normaliseChoiceLabel(record.label);
    const recordText = record.text ?? record.content;
    if (typeof recordText === 'string' && recordText.trim() !== '') text = recordText.trim();
  } else {
    problems.push({ path: ['correct_choice'], message: 'correct_choice must be a label or a {label, text} object' });
    return undefined;
  }
  if (label !== undefined && choices.some((choice) => choice.label === label)) return label;
  if (label === undefined && text !== undefined) {
    const matches = choices.filter((choice) => looseText(choice.text) === looseText(text));
    if (matches.length === 1) return matches[0]?.label;
    problems.push({ path: ['correct_choice'], message: `correct_choice ${JSON.stringify(value)} names no choice by label or text` });
    return undefined;
  }
  if (label !== undefined && text !== undefined) {
    choices.push({ label, text });
    choices.sort((left, right) => left.label.localeCompare(right.label));
    return label;
  }
  problems.push({
    path: ['correct_choice'],
    message: `the correct label ${label ?? JSON.stringify(value)} is not one of the choices (${choices.map((choice) => choice.label).join(', ')}) and has no text to add it with`,
  });
  return undefined;
}

function readTheoremTypes(value: string | string[] | null | undefined): string[] {
  const list = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Whether a row carries a multiple-choice question at all (raw monthly files may hold rows without one). */
export function hasMultipleChoiceQuestion(value: unknown): boolean {
  const parsed = rawItemShape.safeParse(value);
  if (!parsed.success) return false;
  const raw = parsed.data;
  const question = raw.mcq?.question ?? raw.question;
  const choices = raw.mcq?.choices ?? raw.choices;
  const correct = raw.mcq?.correct_choice ?? raw.correct_choice;
  return typeof question === 'string' && question.trim() !== '' && choices !== undefined && choices !== null && correct !== undefined && correct !== null;
}

function normalise(raw: RawItemShape, problems: Problem[]): LiveMathTaskItem | undefined {
  const month = raw.month === null || raw.month === undefined ? undefined : String(raw.month).trim();
  const no = raw.no ?? undefined;
  let id = raw.id?.trim();
  if (id === undefined || id === '') {
    if (month !== undefined && month !== '' && no !== undefined && String(no).trim() !== '') id = `${month}:${String(no).trim()}`;
    else problems.push({ path: ['id'], message: 'the item has no id (nor month and no to make "<month>:<no>" from)' });
  }
  const question = (raw.mcq?.question ?? raw.question ?? '').trim();
  if (question === '') problems.push({ path: ['question'], message: 'question must not be blank' });
  const choicesValue = raw.mcq?.choices ?? raw.choices;
  const correctValue = raw.mcq?.correct_choice ?? raw.correct_choice;
  let choices: LiveMathChoice[] = [];
  if (choicesValue === undefined || choicesValue === null) problems.push({ path: ['choices'], message: 'choices are missing' });
  else choices = readChoices(choicesValue, problems);
  let correctLabel: string | undefined;
  if (correctValue === undefined || correctValue === null) problems.push({ path: ['correct_choice'], message: 'correct_choice is missing' });
  else if (choices.length > 0) correctLabel = readCorrectLabel(correctValue, choices, problems);
  if (choicesValue !== undefined && choicesValue !== null && problems.length === 0 && choices.length < 2) {
    problems.push({ path: ['choices'], message: 'a multiple-choice question needs at least two choices' });
  }
  const correct = choices.find((choice) => choice.label === correctLabel);
  if (problems.length > 0 || id === undefined || correct === undefined) return undefined;
  const item: LiveMathTaskItem = {
    id,
    taskType: LIVEMATH_TASK_TYPE,
    question,
    references: [correct.label, correct.text],
    choices,
    theorem_types: readTheoremTypes(raw.theorem_type),
  };
  if (typeof raw.theorem === 'string' && raw.theorem.trim() !== '') item.theorem = raw.theorem.trim();
  if (typeof raw.sketch === 'string' && raw.sketch.trim() !== '') item.sketch = raw.sketch.trim();
  if (month !== undefined && month !== '') item.month = month;
  if (no !== undefined) item.no = no;
  if (typeof raw.paper_link === 'string' && raw.paper_link.trim() !== '') item.paper_link = raw.paper_link.trim();
  return item;
}

/**
 * The zod mapper from a stored item (materialised or raw monthly row) to a TaskItem, in the
 * choices' stored order (see `shuffleItemChoices` for the order the target sees). Every problem is
 * reported with its path: a blank question, a choice without text, a label used twice, a correct
 * label that names no choice.
 */
export const liveMathItemSchema: z.ZodType<LiveMathTaskItem> = rawItemShape.transform((raw, context) => {
  const problems: Problem[] = [];
  const item = normalise(raw, problems);
  if (item === undefined) {
    for (const problem of problems) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    return z.NEVER;
  }
  return item;
}) as unknown as z.ZodType<LiveMathTaskItem>;

/**
 * The seed of one item's choice order: the first 48 bits of SHA-256(`<seed>:<id>`), so it depends
 * on nothing but the seed and the id (not on the batch, the phase, or the other items in the split).
 */
export function choiceOrderSeed(seed: number, id: string): number {
  return Number.parseInt(createHash('sha256').update(`${seed}:${id}`, 'utf8').digest('hex').slice(0, 12), 16);
}

/**
 * The item with its choices in a fixed pseudo-random order, relabelled A, B, C, … in that order,
 * and `references` pointing at the correct choice's new label. Deterministic: the same item and
 * seed give the same order on every run and machine (env-kit's mulberry32 shuffle).
 */
export function shuffleItemChoices(item: LiveMathTaskItem, seed: number): LiveMathTaskItem {
  const order = seededShuffle(item.choices, choiceOrderSeed(seed, item.id));
  const correctLabel = item.references[0];
  const choices = order.map((choice, index) => ({ label: CHOICE_LABELS[index] ?? choice.label, text: choice.text }));
  const correctIndex = order.findIndex((choice) => choice.label === correctLabel);
  const correct = choices[correctIndex];
  if (correct === undefined) return item;
  return { ...item, choices, references: [correct.label, correct.text] };
}

/** Loads one split from a split root (any layout env-kit accepts), choices in their stored order. */
export function loadLiveMathSplitDirectory(splitDirectory: string, split: SplitName, options: ItemsFileOptions = {}): Promise<LiveMathTaskItem[]> {
  return loadSplitItems(splitDirectory, split, liveMathItemSchema, options);
}

/** The benchmark's raw monthly files: `qa_<YYYYMM>_final.json`. */
export const MONTHLY_FILE_PATTERN = /^qa_(\d{6})_final\.json$/;

async function findMonthlyFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && MONTHLY_FILE_PATTERN.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Reads a pool file: `.jsonl` line by line; `.json` as an array of rows, or an object holding the
 * rows under `data`, or an object whose values are the rows (the shapes the original accepted).
 */
export async function readLiveMathPoolFile(file: string, options: ItemsFileOptions = {}): Promise<RawItem[]> {
  if ((JSON_LINES_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase())) return readJsonLinesFile(file, options);
  const text = await readItemsFileText(file, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw createDataInvalidError(`cannot read ${file} as JSON: ${(error as Error).message}`, { file }, error);
  }
  let rows: unknown[];
  if (Array.isArray(parsed)) rows = parsed;
  else if (parsed !== null && typeof parsed === 'object') {
    const data = (parsed as Record<string, unknown>).data;
    rows = Array.isArray(data) ? data : Object.values(parsed as Record<string, unknown>);
  } else throw createDataInvalidError(`${file} must hold a JSON array of items (or an object of them)`, { file });
  return rows.map((value, index) => ({ value, source: { file, index } }));
}

/**
 * The files of a ratio pool: `data_path` itself when it is a file; in a directory, every monthly
 * `qa_<YYYYMM>_final.json` below it (sorted by path), else its one `.json`/`.jsonl` file.
 */
export async function resolvePoolFiles(dataPath: string): Promise<{ files: string[]; monthly: boolean }> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dataPath);
  } catch (error) {
    throw createDataInvalidError(`data_path ${dataPath} does not exist`, { dataPath }, error);
  }
  if (info.isFile()) return { files: [dataPath], monthly: MONTHLY_FILE_PATTERN.test(path.basename(dataPath)) };
  const monthly = await findMonthlyFiles(dataPath);
  if (monthly.length > 0) return { files: monthly, monthly: true };
  const candidates = (await readdir(dataPath)).filter((name) => ['.json', '.jsonl', '.ndjson'].includes(path.extname(name).toLowerCase())).sort();
  if (candidates.length === 1 && candidates[0] !== undefined) return { files: [path.join(dataPath, candidates[0])], monthly: false };
  throw createDataInvalidError(
    candidates.length === 0
      ? `data_path ${dataPath} holds no qa_<YYYYMM>_final.json file and no .json or .jsonl file`
      : `data_path ${dataPath} holds several item files (${candidates.join(', ')}) and no qa_<YYYYMM>_final.json file; name one`,
    { dataPath, candidates },
  );
}

/**
 * Ratio mode: reads the pool, checks every item, shuffles with env-kit's seeded shuffle and cuts
 * train/val/test by largest-remainder counts. Rows of the raw monthly files that carry no
 * multiple-choice question at all are left out (as the original did) and counted in the manifest;
 * any other bad row is an error. With `split_output_dir` the normalised items are also written
 * there, in the split-directory layout, with a `split_manifest.json`.
 */
export async function loadLiveMathRatioSplits(config: LiveMathConfig): Promise<Record<SplitName, LiveMathTaskItem[]>> {
  const { files, monthly } = await resolvePoolFiles(config.data_path);
  let rawItems: RawItem[] = [];
  for (const file of files) rawItems.push(...(await readLiveMathPoolFile(file, { maxBytes: config.max_items_file_bytes })));
  const total = rawItems.length;
  if (monthly) rawItems = rawItems.filter((raw) => hasMultipleChoiceQuestion(raw.value));
  const items = mapRawItems(rawItems, liveMathItemSchema);
  const split = splitByRatio(items, { ratio: config.split_ratio, seed: config.split_seed });
  if (config.split_output_dir.trim() !== '') {
    const stored = (list: LiveMathTaskItem[]) => list.map(toStoredItem);
    await writeSplitDirectory(
      config.split_output_dir,
      { train: stored(split.train), val: stored(split.val), test: stored(split.test) },
      {
        manifest: {
          source_data_path: config.data_path,
          source_files: files,
          split_mode: 'ratio',
          split_ratio: config.split_ratio,
          split_seed: config.split_seed,
          skipped_rows_without_mcq: total - rawItems.length,
          counts: { train: split.train.length, val: split.val.length, test: split.test.length },
        },
      },
    );
  }
  return split;
}

/** An item back in the materialised on-disk format (choices in their stored order). */
export function toStoredItem(item: LiveMathTaskItem): Record<string, unknown> {
  const [label, text] = item.references;
  return {
    id: item.id,
    ...(item.month === undefined ? {} : { month: item.month }),
    ...(item.no === undefined ? {} : { no: item.no }),
    ...(item.paper_link === undefined ? {} : { paper_link: item.paper_link }),
    theorem: item.theorem ?? '',
    sketch: item.sketch ?? '',
    theorem_type: item.theorem_types,
    question: item.question,
    choices: item.choices.map((choice) => ({ label: choice.label, text: choice.text })),
    correct_choice: { label, text },
  };
}
