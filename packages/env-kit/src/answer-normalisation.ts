// Python's `string.punctuation`: ASCII only, so letters with accents and non-ASCII symbols survive.
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

// JavaScript's `\b` only knows ASCII word characters; these lookarounds give the Unicode-aware word
// boundary the SQuAD script relies on, so the "a" in "café a" is removed but not the one in "añejo".
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

const WHITESPACE_RUN = /\s+/gu;

/**
 * SQuAD-style answer normalisation: lower-case, drop ASCII punctuation, remove the whole words
 * "a", "an" and "the", collapse whitespace. `"The  Quick, brown fox!"` becomes `"quick brown fox"`.
 */
export function normaliseAnswer(text: string): string {
  return text.toLowerCase().replace(ASCII_PUNCTUATION, '').replace(ARTICLES, ' ').replace(WHITESPACE_RUN, ' ').trim();
}

/** The tokens of the normalised answer (empty for an answer that normalises to nothing). */
export function answerTokens(text: string): string[] {
  const normalised = normaliseAnswer(text);
  return normalised === '' ? [] : normalised.split(' ');
}

/**
 * True when the model gave no answer at all (nothing but whitespace). The scorers in this package
 * never let such a prediction match a non-blank reference. The original's SQuAD scorer did (an
 * empty prediction normalises to "" and so matched any reference that also normalised to "", such
 * as "The"; its substring match accepted an empty prediction for everything), which rewarded
 * silence. A non-blank prediction that normalises to "" (say "a") is still compared normally.
 */
export function isBlankAnswer(text: string): boolean {
  return text.trim() === '';
}
