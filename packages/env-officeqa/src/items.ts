import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { z } from 'zod';

/** OfficeQA's two difficulty labels, and the type of an item that has none. */
export const OFFICEQA_TASK_TYPES = ['easy', 'hard', 'officeqa'] as const;
export type OfficeQaTaskType = (typeof OFFICEQA_TASK_TYPES)[number];

/**
 * Reads a list field the way the original's loader did: a JSON array, a JSON array written as
 * text, newline-separated text (CRLF too), comma-separated text, or a single value. Entries are
 * trimmed; blank ones dropped.
 */
export function parseListField(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
  const text = String(value).trim();
  if (text === '') return [];
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parseListField(parsed);
    } catch {
      // not JSON: read it as text below
    }
  }
  const lines = text.split(/\r?\n/);
  const pieces = lines.length > 1 ? lines : text.split(',');
  return pieces.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/**
 * Why a document name from an item cannot be used, or undefined when it is fine: it must be a
 * relative path inside the document folder (no absolute path, no `..`, no backslash, no NUL).
 * Checked when items load, so a bad name is a data error before any model call.
 */
export function documentNameProblem(name: string): string | undefined {
  if (name.includes('\0')) return 'contains a NUL character';
  if (name.includes('\\')) return 'contains a backslash; use / between folders';
  if (path.posix.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) return 'is an absolute path; document names are relative to the document folder';
  if (name.split('/').some((segment) => segment === '..')) return 'contains a ".." segment';
  if (name.split('/').every((segment) => segment === '' || segment === '.')) return 'names no file';
  return undefined;
}

/** A document name in its canonical form: `./` segments and doubled slashes removed. */
export function canonicalDocumentName(name: string): string {
  return name
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

const text = z.union([z.string(), z.number().transform(String)]);

/**
 * One OfficeQA item as materialised on disk. The materializer writes `{id, uid, question, answer,
 * category, source_files, source_docs}`; the original's other names are accepted too (`uid` for
 * `id`, `ground_truth` for `answer`, `difficulty` for `category`), and list fields may be arrays
 * or text (see `parseListField`). Unknown fields are ignored.
 */
export const officeQaRawItemSchema = z
  .object({
    id: text.optional(),
    uid: text.optional(),
    question: z.string(),
    answer: text.optional(),
    ground_truth: text.optional(),
    category: z.string().nullish(),
    difficulty: z.string().nullish(),
    source_files: z.unknown().optional(),
    source_docs: z.unknown().optional(),
  })
  .superRefine((raw, context) => {
    const id = (raw.id ?? raw.uid ?? '').trim();
    if (id === '') context.addIssue({ code: 'custom', path: ['id'], message: 'id (or uid) must not be blank' });
    else if (/[/\\]|^\.\.?$/.test(id)) context.addIssue({ code: 'custom', path: ['id'], message: `id "${id}" must not contain / or \\ or be . or ..` });
    if (raw.question.trim() === '') context.addIssue({ code: 'custom', path: ['question'], message: 'question must not be blank' });
    if ((raw.answer ?? raw.ground_truth ?? '').trim() === '')
      context.addIssue({ code: 'custom', path: ['answer'], message: 'answer (or ground_truth) must not be blank' });
    const category = (raw.category ?? raw.difficulty ?? '').trim().toLowerCase();
    if (category !== '' && category !== 'easy' && category !== 'hard')
      context.addIssue({ code: 'custom', path: ['category'], message: `category must be easy or hard, got "${raw.category ?? raw.difficulty}"` });
    const files = parseListField(raw.source_files);
    if (files.length === 0) context.addIssue({ code: 'custom', path: ['source_files'], message: 'source_files must name at least one document' });
    for (const file of files) {
      const problem = documentNameProblem(file);
      if (problem !== undefined) context.addIssue({ code: 'custom', path: ['source_files'], message: `document "${file}" ${problem}` });
    }
  });
export type OfficeQaRawItem = z.input<typeof officeQaRawItemSchema>;

/**
 * The TaskItem an OfficeQA item becomes: `references` holds the one gold answer, `files` the
 * item's own documents (names relative to the document folders: the only files its tools can
 * see), `sourceDocs` the original's source page URLs when the item has them.
 */
export interface OfficeQaTaskItem extends TaskItem {
  taskType: OfficeQaTaskType;
  question: string;
  references: string[];
  files: string[];
  sourceDocs?: string[];
}

/** The zod mapper from the on-disk item to a TaskItem, for env-kit's loaders. */
export const officeQaItemMapper: z.ZodType<OfficeQaTaskItem> = officeQaRawItemSchema.transform((raw) => {
  const category = (raw.category ?? raw.difficulty ?? '').trim().toLowerCase();
  const files = [...new Set(parseListField(raw.source_files).map(canonicalDocumentName))];
  const item: OfficeQaTaskItem = {
    id: (raw.id ?? raw.uid ?? '').trim(),
    taskType: category === 'easy' || category === 'hard' ? category : 'officeqa',
    question: raw.question.trim(),
    references: [(raw.answer ?? raw.ground_truth ?? '').trim()],
    files,
  };
  const sourceDocs = parseListField(raw.source_docs);
  if (sourceDocs.length > 0) item.sourceDocs = sourceDocs;
  return item;
}) as unknown as z.ZodType<OfficeQaTaskItem>;
