import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh directory with the given files (relative path → text), removed by `cleanup`. */
export function writeFiles(files: Record<string, string>): { root: string; path: (relative: string) => string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'skillopt-config-'));
  for (const [relative, text] of Object.entries(files)) {
    const target = join(root, relative);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return { root, path: (relative) => join(root, relative), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
