import type { SplitName, TaskItem } from '@skillopt/contract';
import { loadSplitItems } from '@skillopt/env-kit';
import { z } from 'zod';

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
