import { z } from 'zod';

export const SPLIT_NAMES = ['train', 'val', 'test'] as const;
export type SplitName = (typeof SPLIT_NAMES)[number];

/**
 * One task of a benchmark. Envs add their own fields (a document path, choices, a tool corpus);
 * they pass through untouched. `question` is the text that identifies the task to a reader and
 * `references` the gold answers, where the benchmark has them: the env's evaluator scores against
 * them, and the simulated model builds its answer key from them. Neither is ever put in a prompt.
 */
export const taskItemSchema = z.looseObject({
  id: z.string().min(1),
  taskType: z.string().min(1),
  question: z.string().optional(),
  references: z.array(z.string()).optional(),
});
export type TaskItem = z.infer<typeof taskItemSchema>;
