/**
 * A small line differ for `skillopt runs diff` and the dashboard's skill diff: the longest common subsequence of the two texts'
 * lines (after the common prefix and suffix are set aside), printed as a unified diff with hunks of
 * `context` unchanged lines around each change. Skill documents are a few hundred lines, so the
 * quadratic table is cheap; beyond `MAX_TABLE_CELLS` the middle is shown as removed then added.
 */

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string };

const MAX_TABLE_CELLS = 16_000_000;

/** The lines of a text; a final newline does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The edit script turning `before` into `after`, line by line, in order. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore -= 1;
    endAfter -= 1;
  }
  const same = (lines: readonly string[]) => lines.map((text): DiffLine => ({ kind: 'same', text }));
  const middle = middleScript(before.slice(start, endBefore), after.slice(start, endAfter));
  return [...same(before.slice(0, start)), ...middle, ...same(before.slice(endBefore))];
}

function middleScript(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_TABLE_CELLS)
    return [...a.map((text): DiffLine => ({ kind: 'removed', text })), ...b.map((text): DiffLine => ({ kind: 'added', text }))];
  // lcs[i][j]: the length of the LCS of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lcs[i * width + j] =
        a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
  const script: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      script.push({ kind: 'same', text: a[i] as string });
      i += 1;
      j += 1;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      script.push({ kind: 'removed', text: a[i] as string });
      i += 1;
    } else {
      script.push({ kind: 'added', text: b[j] as string });
      j += 1;
    }
  }
  while (i < n) script.push({ kind: 'removed', text: a[i++] as string });
  while (j < m) script.push({ kind: 'added', text: b[j++] as string });
  return script;
}

export interface UnifiedDiffOptions {
  /** The names on the `---` and `+++` lines. */
  fromName: string;
  toName: string;
  /** Unchanged lines shown around each change; default 3. */
  context?: number;
}

export interface UnifiedDiff {
  /** The diff text, ending with a newline; empty when the texts are equal. */
  text: string;
  added: number;
  removed: number;
}

/** `before` → `after` as a unified diff (`--- a`, `+++ b`, `@@ -l,s +l,s @@` hunks). */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions): UnifiedDiff {
  const script = diffLines(splitLines(before), splitLines(after));
  const context = options.context ?? 3;
  const added = script.filter((line) => line.kind === 'added').length;
  const removed = script.filter((line) => line.kind === 'removed').length;
  if (added === 0 && removed === 0) return { text: '', added, removed };

  // Position of each script line in the old and the new text (0-based, before the line).
  const positions: Array<{ old: number; new: number }> = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of script) {
    positions.push({ old: oldLine, new: newLine });
    if (line.kind !== 'added') oldLine += 1;
    if (line.kind !== 'removed') newLine += 1;
  }

  // Ranges of script indexes to show: each change with its context, overlapping ranges merged.
  const ranges: Array<[number, number]> = [];
  script.forEach((line, index) => {
    if (line.kind === 'same') return;
    const from = Math.max(0, index - context);
    const to = Math.min(script.length - 1, index + context);
    const last = ranges.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });

  const out: string[] = [`--- ${options.fromName}`, `+++ ${options.toName}`];
  for (const [from, to] of ranges) {
    const lines = script.slice(from, to + 1);
    const oldCount = lines.filter((line) => line.kind !== 'added').length;
    const newCount = lines.filter((line) => line.kind !== 'removed').length;
    const start = positions[from] as { old: number; new: number };
    // Unified diff numbers lines from 1; an empty side names the line before it.
    const oldStart = oldCount === 0 ? start.old : start.old + 1;
    const newStart = newCount === 0 ? start.new : start.new + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const line of lines) out.push(`${line.kind === 'same' ? ' ' : line.kind === 'removed' ? '-' : '+'}${line.text}`);
  }
  return { text: `${out.join('\n')}\n`, added, removed };
}
