/**
 * Candidate repairs of a JSON value cut off mid-way (a reply that hit the output-token limit),
 * best first. A repair never invents data: it cuts the text back to just after the last complete
 * object or array and closes what is still open, so a list of edits keeps only its complete edits.
 * Only as a last resort is a cut-off string closed where it stopped. Each candidate still has to
 * parse and pass the stage's schema before it is used.
 */
export function truncatedJsonRepairs(fragment: string, maxCandidates = 24): string[] {
  const stack: string[] = [];
  const cutPoints: Array<{ position: number; closers: string }> = [];
  let inString = false;
  for (let index = 0; index < fragment.length; index += 1) {
    const character = fragment[index] as string;
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{') stack.push('}');
    else if (character === '[') stack.push(']');
    else if (character === '}' || character === ']') {
      if (stack[stack.length - 1] !== character) return []; // not a JSON value after all
      stack.pop();
      if (stack.length === 0) return []; // complete, not truncated: nothing to repair
      cutPoints.push({ position: index + 1, closers: [...stack].reverse().join('') });
    }
  }
  if (stack.length === 0) return [];
  const candidates: string[] = [];
  for (let cut = cutPoints.length - 1; cut >= 0 && candidates.length < maxCandidates - 1; cut -= 1) {
    const point = cutPoints[cut] as { position: number; closers: string };
    candidates.push(fragment.slice(0, point.position) + point.closers);
  }
  // Last resort: close an unterminated string and whatever is open, dropping a dangling comma,
  // colon or key so the result can parse.
  let tail = inString ? `${fragment}"` : fragment;
  tail = tail
    .replace(/[\s,]+$/, '')
    .replace(/,?\s*"(?:[^"\\]|\\.)*"\s*:\s*$/, '')
    .replace(/[\s,]+$/, '');
  candidates.push(tail + [...stack].reverse().join(''));
  return candidates;
}
