import { findProtectedRegions } from '@skillopt/optimizer';

/**
 * The semantic density bonus (config `evaluation.use_semantic_density`, off by default).
 *
 * What it is: the share of a skill's words that are *leading words* — the imperative vocabulary of
 * a rule ("MUST", "NEVER", "VERIFY") — measured on the text the optimizer writes, i.e. with the
 * protected slow-update and appendix blocks taken out. The gate adds `weight × density` to the
 * score of the skill being judged (candidate and incumbent alike, each from its own text), so
 * among skills that do equally well on the tasks, the terser, more directive one wins.
 *
 * Exactly (the original's definition, §3.2, with one generalisation):
 * - blank skill → 0; protected regions (as `findProtectedRegions` of the optimizer defines them; an
 *   unterminated start marker protects the rest of the document) are removed first;
 * - the text is lower-cased and cut into words = maximal runs of `[a-z0-9]` (apostrophes and
 *   non-ASCII letters split words); no words → 0;
 * - density = (words that are part of a leading-word match) / (all words).
 * - Leading words compare case-insensitively. Our generalisation: an entry of several words
 *   ("double check") matches that run of words and each of its words counts as a hit; in the
 *   original such an entry could never match.
 *
 * Why it is only a bonus, and small: it is a text heuristic, not evidence that the skill works; with
 * the default weight 0.05 it can only break near-ties between task scores. It changes with the text,
 * never with the cache, because it is recomputed from the skill each time it is scored.
 */

/** The original's default list. */
export const DEFAULT_LEADING_WORDS: readonly string[] = [
  'MUST',
  'ALWAYS',
  'NEVER',
  'ONLY',
  'CRITICAL',
  'IMPORTANT',
  'RESOLVE',
  'PREFER',
  'ENSURE',
  'STRICT',
  'VERIFY',
];

/** The original's default bonus weight (config `evaluation.semantic_density_weight`). */
export const DEFAULT_SEMANTIC_DENSITY_WEIGHT = 0.05;

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** The config's leading words, given as a list or as one comma-separated string (both are accepted). */
export function parseLeadingWords(value: string | readonly string[]): string[] {
  const entries = typeof value === 'string' ? value.split(',') : [...value];
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

function withoutProtectedRegions(skill: string): string {
  let body = '';
  let cursor = 0;
  for (const region of findProtectedRegions(skill)) {
    body += `${skill.slice(cursor, region.start)} `;
    cursor = Math.max(cursor, region.end);
  }
  return body + skill.slice(cursor);
}

/** The density of `skill` in [0, 1] as defined above. */
export function semanticDensity(skill: string, leadingWords: readonly string[] = DEFAULT_LEADING_WORDS): number {
  if (skill.trim() === '') return 0;
  const tokens = words(withoutProtectedRegions(skill));
  if (tokens.length === 0) return 0;
  // Longest phrases first, so "double check" wins over "double" at the same position.
  const phrases = leadingWords
    .map(words)
    .filter((phrase) => phrase.length > 0)
    .sort((left, right) => right.length - left.length);
  let hits = 0;
  let position = 0;
  while (position < tokens.length) {
    const match = phrases.find((phrase) => phrase.every((word, offset) => tokens[position + offset] === word));
    if (match === undefined) {
      position += 1;
    } else {
      hits += match.length;
      position += match.length;
    }
  }
  return hits / tokens.length;
}
