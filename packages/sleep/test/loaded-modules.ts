import { readFileSync } from 'node:fs';
import path from 'node:path';

// The modules a file loads when it runs: value imports and re-exports, not `import type`, and not
// `await import(…)`, which loads only when reached.
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

export const SOURCE_ROOT = path.join(__dirname, '..', 'src');

/** The source files an entry of `src/` loads, and the packages they import (Node's own left out). */
export function loadedModules(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(path.join(SOURCE_ROOT, entry));
  return { files, packages };
}
