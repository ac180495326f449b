import { ANLS_THRESHOLD, anlsScore, levenshteinDistance, normalisedLevenshteinSimilarity } from '@skillopt/env-kit';

/** The ANLS at or above which an answer counts as a pass (`hard` = 1): an exact match, give or take rounding. */
export const DOCVQA_HARD_THRESHOLD = 0.999;

/** Where the scored answer was taken from. */
export type DocVqaAnswerSource = 'tag' | 'last-line' | 'none';

export interface DocVqaExtractedAnswer {
  answer: string;
  source: DocVqaAnswerSource;
}

const OPEN_TAG = '<answer>';
const CLOSE_TAG = '</answer>';

function lastIndexIgnoringCase(text: string, needle: string): number {
  // Searched on the original text (not a lower-cased copy, whose length can differ), ASCII-case-insensitively.
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
  let last = -1;
  for (const match of text.matchAll(pattern)) last = match.index ?? last;
  return last;
}

/**
 * DocVQA's extraction rule (it differs from SearchQA's): the text between the **last** `<answer>`
 * and the **last** `</answer>` (tag names in any case), trimmed, when that closing tag comes after
 * that opening tag; otherwise the last non-empty line, trimmed; otherwise "".
 */
export function extractDocVqaAnswer(reply: string): DocVqaExtractedAnswer {
  const open = lastIndexIgnoringCase(reply, OPEN_TAG);
  const close = lastIndexIgnoringCase(reply, CLOSE_TAG);
  if (open !== -1 && close > open) return { answer: reply.slice(open + OPEN_TAG.length, close).trim(), source: 'tag' };
  const lines = reply.split(/\r?\n/).map((line) => line.trim());
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (line !== '') return { answer: line, source: 'last-line' };
  }
  return { answer: '', source: 'none' };
}

export interface DocVqaScore {
  prediction: string;
  source: DocVqaAnswerSource;
  /** The best normalised Levenshtein similarity over the references (0 when the distance is ≥ 0.5). */
  anls: number;
  /** The reference the prediction came closest to (the first one when none is close). */
  closestReference: string;
  /** ANLS ≥ 0.999: the pass mark. */
  hard: 0 | 1;
  /** The ANLS itself: the graded score. */
  soft: number;
  /** Why the answer did not pass, in neutral words, when it did not. */
  failureReason?: string;
}

/** DocVQA's light normalisation: trimmed, lower-case, whitespace runs collapsed. Punctuation counts. */
function normaliseForDocVqa(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/gu, ' ');
}

/** The text with punctuation and whitespace gone, to tell a punctuation-only difference. */
function lettersAndDigits(text: string): string {
  return normaliseForDocVqa(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

function closest(prediction: string, references: readonly string[]): { reference: string; similarity: number } {
  let best = { reference: references[0] ?? '', similarity: -1 };
  for (const reference of references) {
    const similarity = normalisedLevenshteinSimilarity(prediction, reference);
    if (similarity > best.similarity) best = { reference, similarity };
  }
  return best;
}

/** Why a non-passing answer failed, from the reply, the extracted answer and the closest reference. */
export function diagnoseDocVqaMismatch(reply: string, prediction: string, source: DocVqaAnswerSource, references: readonly string[]): string {
  if (source === 'none') return 'the reply holds no answer at all';
  if (source === 'tag' && prediction === '') return 'the <answer> tag is empty';
  const reasons: string[] = [];
  if (source === 'last-line') {
    reasons.push(
      lastIndexIgnoringCase(reply, OPEN_TAG) === -1
        ? 'no <answer> tag, so the last line of the reply was scored instead'
        : 'the last <answer> tag is not followed by a closing </answer>, so the last line of the reply was scored instead',
    );
  }
  const { reference, similarity } = closest(prediction, references);
  const answer = normaliseForDocVqa(prediction);
  const gold = normaliseForDocVqa(reference);
  const letters = lettersAndDigits(prediction);
  if (letters !== '' && letters === lettersAndDigits(reference)) {
    reasons.push('the answer differs from the reference only in punctuation or spacing, which ANLS counts');
  } else if (gold !== '' && answer.includes(gold)) {
    reasons.push('the answer holds the reference plus extra text; ANLS compares whole strings, so every extra character costs');
  } else if (answer !== '' && gold.includes(answer)) {
    reasons.push('the answer is only part of the reference text as the document writes it');
  } else if (similarity > 0) {
    const edits = levenshteinDistance(answer, gold);
    reasons.push(`close to the reference but not exact (${edits} character edit${edits === 1 ? '' : 's'} away)`);
  } else {
    reasons.push(`a different answer from the reference (at least ${ANLS_THRESHOLD * 100}% of the characters differ, so ANLS is 0)`);
  }
  return reasons.join('; ');
}

/**
 * Scores one reply the DocVQA way: extract the answer (last `<answer>` to last `</answer>`, else the
 * last non-empty line), then ANLS against the references (threshold 0.5); hard = ANLS ≥ 0.999,
 * soft = ANLS. A blank prediction never matches.
 */
export function scoreDocVqaReply(reply: string, references: readonly string[]): DocVqaScore {
  const { answer: prediction, source } = extractDocVqaAnswer(reply);
  const anls = prediction === '' ? 0 : anlsScore(prediction, references);
  const hard: 0 | 1 = anls >= DOCVQA_HARD_THRESHOLD ? 1 : 0;
  const score: DocVqaScore = { prediction, source, anls, closestReference: closest(prediction, references).reference, hard, soft: anls };
  if (hard === 0) score.failureReason = diagnoseDocVqaMismatch(reply, prediction, source, references);
  return score;
}
