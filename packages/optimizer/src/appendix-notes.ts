import { markersIn } from './protected-regions.js';

/**
 * One appendix note as it is stored: a single line, whitespace collapsed. Notes that are empty or
 * contain protection markers (they would break the appendix block) are dropped.
 */
export function cleanAppendixNote(note: string): string | undefined {
  const line = note
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[-*]\s+/, '');
  if (line === '' || markersIn(line).length > 0) return undefined;
  return line;
}

/** The key two notes are duplicates under: case, spacing and trailing punctuation ignored. */
export function appendixNoteKey(note: string): string {
  return note
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.;:,_-]+$/, '')
    .toLowerCase();
}

/** Clean notes, first occurrence of each kept, in order. */
export function deduplicateAppendixNotes(notes: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const note of notes) {
    const cleaned = cleanAppendixNote(note);
    if (cleaned === undefined) continue;
    const key = appendixNoteKey(cleaned);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(cleaned);
  }
  return kept;
}
