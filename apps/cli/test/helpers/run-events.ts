import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The distinct run ids in a run directory's events.jsonl: one, when one run wrote it. */
export function eventRunIds(runDirectory: string): string[] {
  const lines = readFileSync(path.join(runDirectory, 'events.jsonl'), 'utf8').trim().split('\n');
  return [...new Set(lines.map((line) => (JSON.parse(line) as { runId: string }).runId))];
}
