import type { OutcomeSignal } from './session-record.js';

/**
 * The developer's verdict on an agent's work, read from the prompt that followed it: "still
 * broken", "that works, thanks". The original matched raw substrings, so "incorrect" also counted
 * as "correct", "prefixed" as "fixed" and "undone" as "undo" (upstream-sleep §9 item 7). Here a
 * phrase matches only as whole words, a phrase inside a longer negative one counts once, as the
 * negative, and a positive word after a negation ("not correct", "isn't fixed") is negative.
 */

const NEGATIVE_PHRASES = [
  'still broken',
  'still not',
  'still wrong',
  "doesn't work",
  'does not work',
  'not working',
  "that's wrong",
  'thats wrong',
  'incorrect',
  'wrong',
  'nope',
  'fix it',
  "didn't",
  'did not',
  'broken',
  'error again',
  'still failing',
  'still fails',
  'not fixed',
  'revert',
  'undo',
];

const POSITIVE_PHRASES = ['thanks', 'thank you', 'perfect', 'great', 'works now', 'fixed', 'that works', 'lgtm', 'looks good', 'nice', 'awesome', 'correct'];

// "not correct", "isn't fixed", "never works": a negation just before a positive phrase.
const NEGATION_BEFORE = /(?:\bnot|n't|\bnever|\bno longer)\s+(?:\w+\s+)?$/;

export interface FeedbackLexicon {
  negative: readonly string[];
  positive: readonly string[];
}

/**
 * The built-in phrases, plus the comma-separated extras of `SKILLOPT_SLEEP_NEG_FEEDBACK` and
 * `SKILLOPT_SLEEP_POS_FEEDBACK` (other languages, a team's own words).
 */
export function feedbackLexicon(environment: Readonly<Record<string, string | undefined>> = {}): FeedbackLexicon {
  const extra = (name: string) =>
    (environment[name] ?? '')
      .split(',')
      .map((phrase) => phrase.trim().toLowerCase())
      .filter((phrase) => phrase.length > 0);
  return {
    negative: [...NEGATIVE_PHRASES, ...extra('SKILLOPT_SLEEP_NEG_FEEDBACK')],
    positive: [...POSITIVE_PHRASES, ...extra('SKILLOPT_SLEEP_POS_FEEDBACK')],
  };
}

const DEFAULT_LEXICON = feedbackLexicon();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const patternCache = new Map<string, RegExp>();

/** A phrase as whole words: not inside a longer word on either side. */
function phrasePattern(phrase: string): RegExp {
  let pattern = patternCache.get(phrase);
  if (pattern === undefined) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}'])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, 'giu');
    patternCache.set(phrase, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

/** The feedback the prompt `text` (the user's turn number `turn`) gives, in the order found. */
export function detectFeedback(text: string, turn: number, lexicon: FeedbackLexicon = DEFAULT_LEXICON): OutcomeSignal[] {
  const lower = text.toLowerCase();
  const taken: Array<[number, number]> = [];
  const signals: OutcomeSignal[] = [];
  const overlaps = (start: number, end: number) => taken.some(([takenStart, takenEnd]) => start < takenEnd && end > takenStart);
  // Longest phrases first, so "still broken" claims its words before "broken" does.
  const byLength = (phrases: readonly string[]) => [...phrases].sort((left, right) => right.length - left.length);
  for (const phrase of byLength(lexicon.negative)) {
    // Most prompts hold none of the phrases: a plain substring search rules a phrase out far
    // faster than the whole-word pattern can.
    if (!lower.includes(phrase.toLowerCase())) continue;
    for (const match of lower.matchAll(phrasePattern(phrase))) {
      const end = match.index + phrase.length;
      if (overlaps(match.index, end)) continue;
      taken.push([match.index, end]);
      signals.push({ kind: 'user-feedback', polarity: 'negative', phrase, turn });
    }
  }
  for (const phrase of byLength(lexicon.positive)) {
    if (!lower.includes(phrase.toLowerCase())) continue;
    for (const match of lower.matchAll(phrasePattern(phrase))) {
      const end = match.index + phrase.length;
      if (overlaps(match.index, end)) continue;
      taken.push([match.index, end]);
      const negated = NEGATION_BEFORE.test(lower.slice(Math.max(0, match.index - 24), match.index));
      signals.push({ kind: 'user-feedback', polarity: negated ? 'negative' : 'positive', phrase: negated ? `not ${phrase}` : phrase, turn });
    }
  }
  // A bare "no" opening the reply ("no, the other file") is a rejection; "no" elsewhere is prose.
  if (/^\s*no\s*[,.!]/.test(lower)) signals.push({ kind: 'user-feedback', polarity: 'negative', phrase: 'no', turn });
  return signals;
}
