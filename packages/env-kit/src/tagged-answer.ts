export interface LocatedAnswer {
  answer: string;
  /** Where the answer was taken from: the last tag pair, the last non-empty line, or nowhere. */
  source: 'tag' | 'last-line' | 'none';
}

function escapeForRegularExpression(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Finds the answer in a model reply: the content of the last complete `<tag>…</tag>` pair
 * (case-insensitive, may span lines), trimmed; failing that the last non-empty line, trimmed;
 * failing that "" (a blank reply). The source says which rule applied, for failure reasons such as
 * "no answer tag".
 */
export function locateTaggedAnswer(text: string, tag = 'answer'): LocatedAnswer {
  const name = escapeForRegularExpression(tag);
  // Non-greedy, so two tag pairs are two matches; the last one wins because models often draft an
  // answer, then correct it.
  const pairs = [...text.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'gi'))];
  const lastPair = pairs.at(-1);
  if (lastPair !== undefined) return { answer: (lastPair[1] ?? '').trim(), source: 'tag' };
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (line !== '') return { answer: line, source: 'last-line' };
  }
  return { answer: '', source: 'none' };
}

/** The answer text of `locateTaggedAnswer` (last `<tag>` pair, else last non-empty line, else ""). */
export function extractTaggedAnswer(text: string, tag = 'answer'): string {
  return locateTaggedAnswer(text, tag).answer;
}
