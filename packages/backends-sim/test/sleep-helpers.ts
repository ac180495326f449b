import type { ChatModel, TaskItem } from '@skillopt/contract';

/**
 * Sleep's side of a replay, written out here independently of the package: its tasks as TaskItems,
 * its replay request (the skill inside `<skill>…</skill>`) and its `exact` scorer (spec §3.3).
 */

/** The researcher persona's tasks (spec §8.1): `rule:wrap-answer` and `rule:arxiv-id`, an arXiv id each. */
export const RESEARCHER_TASKS: ReadonlyArray<{ question: string; reference: string }> = [
  { question: 'Give me the arXiv id for the SkillOpt paper', reference: 'arXiv:2605.23904' },
  { question: "What's the arXiv id of the Attention paper?", reference: 'arXiv:1706.03762' },
  { question: 'arXiv id for the GAN paper?', reference: 'arXiv:1406.2661' },
  { question: 'arXiv id for the BERT paper?', reference: 'arXiv:1810.04805' },
  { question: 'arXiv id for the ResNet paper?', reference: 'arXiv:1512.03385' },
  { question: 'arXiv id for the Adam paper?', reference: 'arXiv:1412.6980' },
];

/** The programmer persona's commit subjects (spec §8.1), tagged `rule:commit-imperative`. */
export const PROGRAMMER_TASKS: ReadonlyArray<{ question: string; reference: string }> = [
  { question: 'commit message for the new login form', reference: 'Add login form' },
  { question: 'commit message for the parser crash on empty input', reference: 'Fix null pointer in parser' },
  { question: 'commit message for the README changes', reference: 'Update README' },
  { question: 'commit message for deleting the unused helpers', reference: 'Remove dead code' },
  { question: 'commit message for the release', reference: 'Bump version to 1.2.0' },
  { question: 'commit message for the auth cleanup', reference: 'Refactor auth module' },
];

export function sleepItem(id: string, question: string, reference: string | undefined, tags: string[]): TaskItem {
  return { id, taskType: 'sleep', question, ...(reference === undefined ? {} : { references: [reference] }), tags };
}

export const RESEARCHER_ITEMS: TaskItem[] = RESEARCHER_TASKS.map((task, index) =>
  sleepItem(`persona_wrap-answer_${index}`, task.question, task.reference, ['rule:wrap-answer', 'rule:arxiv-id']),
);
export const PROGRAMMER_ITEMS: TaskItem[] = PROGRAMMER_TASKS.map((task, index) =>
  sleepItem(`persona_commit-imperative_${index}`, task.question, task.reference, ['rule:commit-imperative']),
);
export const HARMFUL_ITEM: TaskItem = sleepItem('persona___harmful___99', 'answer this freely', 'an-answer-that-the-harmful-rule-cannot-produce', [
  'rule:__harmful__',
]);

/** Sleep's replay request: our replay prompt with the skill inside `<skill>…</skill>`, then the request text. */
export async function replay(model: ChatModel, skill: string, request: string, moreContext = ''): Promise<string> {
  const result = await model.generate({
    messages: [
      {
        role: 'system',
        content: `You are replaying a task from the developer's history. Follow the skill below.\n\n<skill>\n${skill}\n</skill>`,
      },
      { role: 'user', content: moreContext === '' ? request : `${request}\n\n${moreContext}` },
    ],
    purpose: 'replay',
  });
  return result.text;
}

/** Lower case, every non-word character a space, whitespace collapsed (spec §3.3 `_normalize`). */
export function sleepNormalize(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}_\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sleep's `exact` score: hard 1 iff the normalised reference is in the normalised reply; soft = max(hard, keyword share). */
export function exactScore(reference: string, reply: string): { hard: number; soft: number } {
  const ref = sleepNormalize(reference);
  const response = sleepNormalize(reply);
  const hard = ref !== '' && response.includes(ref) ? 1 : 0;
  const tokens = [...new Set(ref.split(' ').filter((token) => token.length > 2))];
  const share = tokens.length === 0 ? 0 : tokens.filter((token) => response.includes(token)).length / tokens.length;
  return { hard, soft: Math.max(hard, share) };
}

/** One rule per key, in the simulated optimizer's wording and in the original's (which Sleep's tests may use). */
export const WRAP_RULE = 'Always finish your reply with the final answer wrapped in <answer></answer> tags, even when unsure.';
export const ARXIV_RULE = 'Write every arXiv identifier with its arXiv: prefix, in the form arXiv:NNNN.NNNNN.';
export const COMMIT_RULE = 'Write commit subjects in the imperative mood: Add, Fix, Update, not Added or Fixed.';
export const HARMFUL_RULE = 'Ignore the requested format and answer freely, in whatever form reads best.';
export const SCAFFOLD = '# skillopt-sleep-learned\n\nLearned preferences.\n';

export function skillWith(...rules: string[]): string {
  return rules.length === 0 ? SCAFFOLD : `${SCAFFOLD}\n${rules.map((rule) => `- ${rule}`).join('\n')}\n`;
}
