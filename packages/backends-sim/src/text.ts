/**
 * The SearchQA scorer's view of a reply, mirrored here so the simulated optimizer can read
 * trajectories the way a careful model would (and so tests can score the simulated target).
 */

const ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/gi;

/** The last complete `<answer>…</answer>`, else the last non-empty line, else the whole text, trimmed. */
function extractAnswer(reply: string): string {
  const matches = [...reply.matchAll(ANSWER_TAG)];
  const last = matches[matches.length - 1];
  if (last !== undefined) return (last[1] ?? '').trim();
  const lines = reply.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines[lines.length - 1] ?? reply.trim();
}

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

function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Exact match against any reference, after normalisation. */
function exactMatch(prediction: string, references: readonly string[]): boolean {
  const normalized = normalizeAnswer(prediction);
  return references.some((reference) => normalizeAnswer(reference) === normalized);
}

/** Best token F1 over the references. */
function tokenF1(prediction: string, references: readonly string[]): number {
  const predicted = answerTokens(prediction);
  let best = 0;
  for (const reference of references) {
    const gold = answerTokens(reference);
    if (gold.length === 0) continue;
    if (predicted.length === 0) continue;
    const counts = new Map<string, number>();
    for (const token of gold) counts.set(token, (counts.get(token) ?? 0) + 1);
    let common = 0;
    for (const token of predicted) {
      const count = counts.get(token) ?? 0;
      if (count > 0) {
        common += 1;
        counts.set(token, count - 1);
      }
    }
    if (common === 0) continue;
    const precision = common / predicted.length;
    const recall = common / gold.length;
    best = Math.max(best, (2 * precision * recall) / (precision + recall));
  }
  return best;
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
