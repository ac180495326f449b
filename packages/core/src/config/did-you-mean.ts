import { formatConfigPath } from './config-tree.js';

/**
 * Suggestions for misspelt keys and values. The distance is Damerau–Levenshtein in its
 * "optimal string alignment" form, so a swapped pair of letters (`lerning_rate`/`learnign_rate`)
 * costs one edit, not two: transpositions are the commonest typo in hand-written YAML.
 */
export function editDistance(left: string, right: string): number {
  const a = Array.from(left);
  const b = Array.from(right);
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[] = new Array<number>(rows * columns).fill(0);
  const at = (row: number, column: number): number => table[row * columns + column] ?? 0;
  for (let row = 0; row < rows; row += 1) table[row * columns] = row;
  for (let column = 0; column < columns; column += 1) table[column] = column;
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) best = Math.min(best, at(row - 2, column - 2) + 1);
      table[row * columns + column] = best;
    }
  }
  return at(rows - 1, columns - 1);
}

/** How far a word may be from a candidate and still be suggested: about a third of its length. */
function tolerance(word: string): number {
  return Math.max(1, Math.min(4, Math.floor(word.length / 3)));
}

/** Case, `-` versus `_` and camelCase are spelling, not typos: compare without them. */
function normalise(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** The candidate nearest to `word`, with its distance, or undefined when none is close enough. */
export function nearestWord(word: string, candidates: Iterable<string>): { word: string; distance: number } | undefined {
  const target = normalise(word);
  let best: { word: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(target, normalise(candidate));
    if (distance > tolerance(target)) continue;
    if (!best || distance < best.distance) best = { word: candidate, distance };
  }
  return best;
}

/** Where else a key may belong: the key names of every section, by section. */
export type KeysBySection = ReadonlyMap<string, readonly string[]>;

/**
 * The suggestion for an unknown key at `path` (dotted, the unknown key last): the nearest key at
 * the same level, or — when the key lives in another section (`train.learning_rate`) — that
 * key's full name. A key that exists verbatim in another section beats a distant look-alike here.
 */
export function suggestKey(path: readonly string[], siblings: readonly string[], otherSections: KeysBySection): string | undefined {
  const key = path[path.length - 1];
  if (key === undefined) return undefined;
  const here = nearestWord(key, siblings);
  const parentPath = path.slice(0, -1);

  let elsewhere: { word: string; distance: number } | undefined;
  const currentSection = path.length > 1 ? path[0] : undefined;
  for (const [section, keys] of otherSections) {
    if (section === currentSection) continue;
    const exact = keys.find((candidate) => normalise(candidate) === normalise(key));
    const found = exact !== undefined ? { word: exact, distance: 0 } : nearestWord(key, keys);
    if (found && (!elsewhere || found.distance < elsewhere.distance)) elsewhere = { word: `${section}.${found.word}`, distance: found.distance };
  }

  if (here && (!elsewhere || here.distance <= elsewhere.distance))
    return formatConfigPath([...parentPath.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)), here.word]);
  if (elsewhere) return elsewhere.word;
  return undefined;
}
