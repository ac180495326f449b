import type { TaskItem } from '@skillopt/contract';

/** How a test double phrases the reference answer it found; the default wraps it in answer tags. */
export type AnswerFormatter = (reference: string, item: TaskItem) => string;

export const formatAnswerInTags: AnswerFormatter = (reference) => `<answer>${reference}</answer>`;

/**
 * Finds which item a prompt is about, for test doubles that answer from `item.references`: the
 * item whose `question` appears in the prompt text (the longest such question, so "2 + 2" does not
 * shadow "what is 2 + 2 + 2"), else the item whose `id` appears in it (again the longest).
 * The answer comes from the key, never from the prompt: envs do not put references in prompts.
 */
export function createReferenceAnswerKey(items: readonly TaskItem[]): (promptText: string) => TaskItem | undefined {
  const byQuestion = items
    .filter((item) => typeof item.question === 'string' && item.question.trim() !== '')
    .sort((left, right) => (right.question ?? '').length - (left.question ?? '').length);
  const byId = [...items].sort((left, right) => right.id.length - left.id.length);
  return (promptText) => byQuestion.find((item) => promptText.includes((item.question ?? '').trim())) ?? byId.find((item) => promptText.includes(item.id));
}
