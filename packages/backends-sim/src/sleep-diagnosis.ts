import { pastTenseSubject } from './past-tense.js';
import type { SleepHabit } from './sleep-failure-classes.js';
import { UNWRAPPED_ANSWER_MARKER } from './sleep-target.js';
import { hasWellFormedAnswerTag } from './text.js';

/**
 * What a careful reader sees in a failed trajectory of one of Sleep's tasks (`task type=sleep`),
 * from the reply and what it should have held (the reference, or the text of a failed `contains`
 * check: a task mined with rule checks has no reference): an arXiv id whose prefix went missing, a
 * commit subject put in the past tense, an answer left outside `<answer>` tags. A reply that is
 * simply wrong shows no class: that is a one-off, not something a rule fixes.
 */

export interface SleepTrajectoryText {
  taskType?: string;
  /** The whole reply (Sleep's rollout prediction). */
  prediction: string;
  /** The last assistant turn, when turns were recorded. */
  reply?: string;
  reference?: string;
  /** Why the judge failed it: Sleep's rule judge names each failed check (`failed: contains=arXiv:1706.03762, no_refusal`). */
  failureReason?: string;
}

export function isSleepTrajectory(trajectory: { taskType?: string }): boolean {
  return trajectory.taskType?.trim().toLowerCase() === 'sleep';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lower case, runs of non-word characters one space (Sleep's exact-match normalisation). */
function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The texts a failed rule judge wanted in the reply: the argument of each failed `contains` check (not `not_contains`). */
function wantedByFailedChecks(failureReason: string | undefined): string[] {
  const failed = /^failed: (.*)$/s.exec(failureReason?.trim() ?? '')?.[1];
  if (failed === undefined) return [];
  // Checks are listed `op=arg, op, …`; an argument may hold commas, so each runs to the next `, op`.
  return [...failed.matchAll(/(?:^|, )contains=(.*?)(?=, [a-z_]+(?:=|,|$)|$)/g)].map((match) => (match[1] as string).trim()).filter((text) => text !== '');
}

export function diagnoseSleepTrajectory(trajectory: SleepTrajectoryText): SleepHabit[] {
  const reply = trajectory.reply ?? trajectory.prediction;
  const wanted = [trajectory.reference?.trim() ?? '', ...wantedByFailedChecks(trajectory.failureReason)].filter((text) => text !== '');
  const found: SleepHabit[] = [];
  for (const reference of wanted) {
    for (const match of reference.matchAll(/\barxiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)\b/gi)) {
      const id = match[1] as string;
      const bare = new RegExp(`(?<!arxiv:\\s*)(?<![\\d.])${escapeRegExp(id)}(?![\\d])`, 'i');
      if (bare.test(reply) && !found.includes('bare-arxiv-id')) found.push('bare-arxiv-id');
    }
    const past = pastTenseSubject(reference);
    if (/^\s*[A-Za-z]+\b/.test(reference) && past !== reference && !found.includes('past-tense-commit')) {
      const replyWords = ` ${normalized(reply)} `;
      if (replyWords.includes(` ${normalized(past)} `) && !replyWords.includes(` ${normalized(reference)} `)) found.push('past-tense-commit');
    }
  }
  if (!hasWellFormedAnswerTag(reply) && reply.trimStart().startsWith(UNWRAPPED_ANSWER_MARKER)) found.push('missing-tag');
  return found;
}
