import { jsonrepair } from 'jsonrepair';
import type { JsonScan } from './json-candidates.js';

/**
 * Repaired versions of the places in a reply where its JSON may be, best first, for the slips
 * models make in otherwise complete JSON: trailing commas, single quotes, unquoted keys, comments,
 * Python's `True`/`None`, a missing closing bracket. The repairs are jsonrepair's; each candidate
 * is a balanced span (outer before inner), then the text from an opener never closed to the end
 * (where a comment's brace or a missing bracket left the value unbalanced). A fragment without a
 * single quotation mark is prose (`{op: delete}` in a sentence), not JSON with slips, and is not
 * repaired; nor is one jsonrepair cannot read. What comes out must still pass the stage's schema.
 */
export function* syntaxRepairCandidates(text: string, scan: JsonScan, maxCandidates: number): Generator<string> {
  const seen = new Set<string>();
  for (const start of candidateStarts(scan).slice(0, maxCandidates)) {
    const fragment = text.slice(start.start, start.end);
    if (!/["']/.test(fragment)) continue;
    let repaired: string;
    try {
      repaired = jsonrepair(fragment);
    } catch {
      continue;
    }
    if (seen.has(repaired)) continue;
    seen.add(repaired);
    yield repaired;
  }
}

/**
 * The outermost spans and the openers never closed, in order of position. Spans inside another
 * are left out: the strict reading already tried them, and repairing each of a long list's items
 * would cost more than the reply is worth.
 */
function candidateStarts(scan: JsonScan): Array<{ start: number; end: number | undefined }> {
  const outermost: Array<{ start: number; end: number | undefined }> = [];
  let coveredUntil = -1;
  for (const span of scan.spans) {
    if (span.start < coveredUntil) continue;
    outermost.push(span);
    coveredUntil = span.end;
  }
  const unclosed = scan.unclosedOpeners.map((start) => ({ start, end: undefined }));
  return [...outermost, ...unclosed].sort((left, right) => left.start - right.start);
}
