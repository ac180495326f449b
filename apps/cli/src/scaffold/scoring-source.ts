/** src/scoring.js: the evaluator, built from env-kit's scorers. */
export function buildScoringSource(): string {
  return `// Scoring one reply: the answer is the last <answer>…</answer> (else the last non-empty line), the
// pass mark (hard) is SQuAD exact match against any reference and the graded score (soft) the best
// token F1. Both come from @skillopt/env-kit, so they normalise answers as every SkillOpt env does.
import { exactMatch, extractTaggedAnswer, tokenF1 } from '@skillopt/env-kit';

const ANSWER_TAG = /<answer>[\\s\\S]*?<\\/answer>/i;

/**
 * @param {string} reply the target's whole reply
 * @param {readonly string[]} references the gold answers
 * @returns {{ prediction: string, hard: 0 | 1, soft: number, failureReason?: string }}
 */
export function scoreReply(reply, references) {
  const prediction = extractTaggedAnswer(reply);
  const hard = exactMatch(prediction, references);
  const soft = tokenF1(prediction, references);
  if (hard === 1) return { prediction, hard, soft };
  let failureReason;
  if (prediction.trim() === '') failureReason = 'the reply holds no answer';
  else if (!ANSWER_TAG.test(reply)) failureReason = 'no <answer> tag, so the last line of the reply was scored';
  else if (soft > 0) failureReason = 'the answer only partly matches the reference (extra or missing words)';
  else failureReason = 'a different answer from the reference';
  return { prediction, hard, soft, failureReason };
}

/** The evaluator's feedback as the optimizer reads it in the trajectory. */
export function describeScore(score, references) {
  return [
    'Extracted answer: ' + JSON.stringify(score.prediction),
    'Reference answers: ' + references.map((reference) => JSON.stringify(reference)).join(' | '),
    'Exact match: ' + score.hard + '   Token F1: ' + score.soft.toFixed(2),
    score.failureReason === undefined ? 'Verdict: correct' : 'Verdict: wrong: ' + score.failureReason,
  ].join('\\n');
}
`;
}
