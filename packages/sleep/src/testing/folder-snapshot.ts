import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `folder`, by its path relative to it, with its text: what "unchanged" is checked against. */
export function folderSnapshot(folder: string): Record<string, string> {
  if (!existsSync(folder)) return {};
  const files = (readdirSync(folder, { recursive: true }) as string[]).filter((entry) => statSync(path.join(folder, entry)).isFile());
  return Object.fromEntries(files.sort().map((entry) => [entry, readFileSync(path.join(folder, entry), 'utf8')]));
}
