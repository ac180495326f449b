import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { createDataInvalidError, mapConcurrent } from '@skillopt/env-kit';
import { z } from 'zod';
import { parseGoldAnswers } from './gold-answers.js';

/**
 * Every DocVQA item is one kind of task (answer a question about a page image). The dataset's
 * `topic` labels (`form`, `table/list|layout`, …) are kept on the item as `topic`.
 */
export const DOCVQA_TASK_TYPE = 'docvqa';

/** The marker the question CSVs use to append the page's path to a question. */
export const DOCUMENT_PATH_MARKER = 'document_path:';

const nonBlank = (what: string) => z.string().refine((text) => text.trim() !== '', `${what} must not be blank`);
const idLike = (what: string) => z.union([nonBlank(what), z.int().transform(String)]);
const optionalLabel = z.union([z.string(), z.int().transform(String)]).nullish();

/**
 * One DocVQA item as materialised on disk. `answers` is normally a list of strings; it may also be
 * a JSON or Python list string, an object or a list of objects (see `parseGoldAnswers`), and may be
 * named `answer` or `ground_truth` as in the question CSVs. The id is `id`, else `questionId`. The
 * page image is `image_path`, else the `document_path:` suffix of the question.
 */
export const docVqaRawItemSchema = z.object({
  id: idLike('id').optional(),
  questionId: idLike('questionId').optional(),
  question: nonBlank('question'),
  answers: z.unknown().optional(),
  answer: z.unknown().optional(),
  ground_truth: z.unknown().optional(),
  image_path: z.string().nullish(),
  topic: optionalLabel,
  category: optionalLabel,
  docId: optionalLabel,
  ucsf_document_id: optionalLabel,
  ucsf_document_page_no: optionalLabel,
  source_split: optionalLabel,
});
export type DocVqaRawItem = z.input<typeof docVqaRawItemSchema>;

/**
 * The TaskItem a DocVQA item becomes: `references` are the gold answers (the first is the canonical
 * one), `image_path` the page image as an absolute path, and the dataset's labels pass through.
 */
export interface DocVqaTaskItem extends TaskItem {
  taskType: typeof DOCVQA_TASK_TYPE;
  question: string;
  references: string[];
  image_path: string;
  topic?: string;
  questionId?: string;
  docId?: string;
  ucsf_document_id?: string;
  ucsf_document_page_no?: string;
  source_split?: string;
}

/** Splits `"What is the date? document_path: pages/p1.png"` into the question and the path. */
export function splitDocumentPath(question: string): { question: string; documentPath?: string } {
  const at = question.lastIndexOf(DOCUMENT_PATH_MARKER);
  if (at === -1) return { question: question.trim() };
  const documentPath = question.slice(at + DOCUMENT_PATH_MARKER.length).trim();
  const rest = question.slice(0, at).trim();
  return documentPath === '' ? { question: rest } : { question: rest, documentPath };
}

/** The zod mapper from the on-disk item to a TaskItem; relative image paths resolve against `imageRoot`. */
export function createDocVqaItemMapper(imageRoot: string): z.ZodType<DocVqaTaskItem> {
  return docVqaRawItemSchema.transform((raw, context) => {
    const id = raw.id ?? raw.questionId;
    if (id === undefined) {
      context.addIssue({ code: 'custom', path: ['id'], message: 'the item needs an id (or a questionId)' });
      return z.NEVER;
    }
    const { question, documentPath } = splitDocumentPath(raw.question);
    if (question === '') {
      context.addIssue({ code: 'custom', path: ['question'], message: 'question must not be blank once the document_path is taken off' });
      return z.NEVER;
    }
    const goldField = raw.answers !== undefined ? 'answers' : raw.answer !== undefined ? 'answer' : 'ground_truth';
    const references = parseGoldAnswers(raw[goldField]);
    if (references.length === 0) {
      context.addIssue({ code: 'custom', path: [goldField], message: `${goldField} must hold at least one non-blank gold answer` });
      return z.NEVER;
    }
    const imagePath = typeof raw.image_path === 'string' && raw.image_path.trim() !== '' ? raw.image_path.trim() : documentPath;
    if (imagePath === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['image_path'],
        message: 'the item names no page image (image_path, or a document_path: suffix on the question)',
      });
      return z.NEVER;
    }
    const item: DocVqaTaskItem = {
      id,
      taskType: DOCVQA_TASK_TYPE,
      question,
      references,
      image_path: path.resolve(imageRoot, imagePath),
    };
    const topic = raw.topic ?? raw.category;
    if (typeof topic === 'string' && topic.trim() !== '') item.topic = topic.trim();
    for (const key of ['questionId', 'docId', 'ucsf_document_id', 'ucsf_document_page_no', 'source_split'] as const) {
      const value = raw[key];
      if (typeof value === 'string' && value.trim() !== '') item[key] = value.trim();
    }
    return item;
  }) as unknown as z.ZodType<DocVqaTaskItem>;
}

/**
 * Checks that every item's page image is a file, and reports every one that is not in a single
 * `data-invalid` error (the first few named), so a half-copied image folder is caught before a run.
 */
export async function assertPageImagesExist(items: readonly DocVqaTaskItem[], where: string): Promise<void> {
  const missing = (
    await mapConcurrent(items, 16, async (item) => {
      try {
        return (await stat(item.image_path)).isFile() ? undefined : item;
      } catch {
        return item;
      }
    })
  ).filter((item): item is DocVqaTaskItem => item !== undefined);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 5).map((item) => `${item.id} (${item.image_path})`);
  const more = missing.length > shown.length ? `, and ${missing.length - shown.length} more` : '';
  throw createDataInvalidError(
    `${where}: ${missing.length} of ${items.length} page images are missing: ${shown.join(', ')}${more}; set env.image_root to the folder relative image paths start from`,
    { missing: missing.map((item) => ({ id: item.id, imagePath: item.image_path })) },
  );
}
