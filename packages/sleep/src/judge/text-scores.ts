/**
 * Lower-cased, trimmed, every character that is neither a letter, a mark, a digit, `_` nor white
 * space made a space, white space collapsed. NFKC first, so full-width digits and ligatures compare
 * equal to their plain forms; marks are kept so Devanagari or decomposed accents stay inside a word.
 */
export function normalizeForScoring(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** 1 when the normalised reference appears in the normalised answer, else 0 (and 0 for an empty reference). */
export function exactScore(reference: string, response: string): number {
  const wanted = normalizeForScoring(reference);
  if (wanted === '') return 0;
  return normalizeForScoring(response).includes(wanted) ? 1 : 0;
}

/** The share of the reference's distinct words longer than two characters that the answer contains; 0 when it has none. */
export function keywordSoftScore(reference: string, response: string): number {
  const words = [...new Set(normalizeForScoring(reference).split(' '))].filter((word) => Array.from(word).length > 2);
  if (words.length === 0) return 0;
  const answer = normalizeForScoring(response);
  return words.filter((word) => answer.includes(word)).length / words.length;
}
