/**
 * The SearchQA scorer's view of a reply, mirrored here so the simulated optimizer can read
 * trajectories the way a careful model would (and so tests can score the simulated target).
 */

/** True when the reply holds at least one complete `<answer>…</answer>`. */
export function hasWellFormedAnswerTag(reply: string): boolean {
  return /<answer>[\s\S]*?<\/answer>/i.test(reply);
}

/** True when the reply holds something that looks like an answer tag, complete or not. */
export function hasAnswerTagAttempt(reply: string): boolean {
  return /<\s*\/?\s*answer|\[\s*\/?\s*answer\s*\]/i.test(reply);
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** SQuAD normalisation: lower case, ASCII punctuation dropped, a/an/the dropped, spaces collapsed. */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lower case, every run of non-alphanumerics a single space: words kept apart (unlike SQuAD's). */
export function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
}
