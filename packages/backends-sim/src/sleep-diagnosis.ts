import { pastTenseSubject } from './past-tense.js';
import type { SleepHabit } from './sleep-failure-classes.js';
import { UNWRAPPED_ANSWER_MARKER } from './sleep-target.js';
import { hasWellFormedAnswerTag } from './text.js';

/**
 * What a careful reader sees in a failed trajectory of one of Sleep's tasks (`task type=sleep`),
 * from the reply and the reference alone: an arXiv id whose prefix went missing, a commit subject
 * put in the past tense, an answer left outside `<answer>` tags. A reply that is simply wrong
 * shows no class: that is a one-off, not something a rule fixes.
 */

export interface SleepTrajectoryText {
  taskType?: string;
  /** The whole reply (Sleep's rollout prediction). */
  prediction: string;
  /** The last assistant turn, when turns were recorded. */
  reply?: string;
  reference?: string;
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

export function diagnoseSleepTrajectory(trajectory: SleepTrajectoryText): SleepHabit[] {
  const reply = trajectory.reply ?? trajectory.prediction;
  const reference = trajectory.reference?.trim() ?? '';
  const found: SleepHabit[] = [];
  if (reference !== '') {
    for (const match of reference.matchAll(/\barxiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)\b/gi)) {
      const id = match[1] as string;
      const bare = new RegExp(`(?<!arxiv:\\s*)(?<![\\d.])${escapeRegExp(id)}(?![\\d])`, 'i');
      if (bare.test(reply) && !found.includes('bare-arxiv-id')) found.push('bare-arxiv-id');
    }
    const past = pastTenseSubject(reference);
    if (/^\s*[A-Za-z]+\b/.test(reference) && past !== reference) {
      const replyWords = ` ${normalized(reply)} `;
      if (replyWords.includes(` ${normalized(past)} `) && !replyWords.includes(` ${normalized(reference)} `)) found.push('past-tense-commit');
    }
  }
  if (!hasWellFormedAnswerTag(reply) && reply.trimStart().startsWith(UNWRAPPED_ANSWER_MARKER)) found.push('missing-tag');
  return found;
}
