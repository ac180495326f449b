import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SPLIT_NAMES, type SplitName } from '@skillopt/contract';

export interface WriteSplitDirectoryOptions {
  /** Written as `<root>/split_manifest.json` when given: where the split came from (ratio, seed, counts). */
  manifest?: Record<string, unknown>;
}

// Temp file + rename, so a run killed mid-write never leaves a half-written items.json that a later
// load would reject (or, worse, that would parse as a shorter array).
async function writeFileAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, file);
}

/**
 * Writes splits in the `<root>/<split>/items.json` layout (2-space JSON, as the original writes it),
 * so a ratio split materialised once can be inspected, committed and loaded with `loadSplitDirectory`.
 * Returns the files written.
 */
export async function writeSplitDirectory(
  root: string,
  splits: Readonly<Record<SplitName, readonly unknown[]>>,
  options: WriteSplitDirectoryOptions = {},
): Promise<string[]> {
  const written: string[] = [];
  for (const split of SPLIT_NAMES) {
    const file = path.join(root, split, 'items.json');
    await writeFileAtomically(file, `${JSON.stringify(splits[split], null, 2)}\n`);
    written.push(file);
  }
  if (options.manifest !== undefined) {
    const file = path.join(root, 'split_manifest.json');
    await writeFileAtomically(file, `${JSON.stringify(options.manifest, null, 2)}\n`);
    written.push(file);
  }
  return written;
}
