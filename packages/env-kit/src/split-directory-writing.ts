import path from 'node:path';
import { SPLIT_NAMES, type SplitName } from '@skillopt/contract';
import { writeFileAtomic } from '@skillopt/runtime-kit';

export interface WriteSplitDirectoryOptions {
  /** Written as `<root>/split_manifest.json` when given: where the split came from (ratio, seed, counts). */
  manifest?: Record<string, unknown>;
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
    await writeFileAtomic(file, `${JSON.stringify(splits[split], null, 2)}\n`);
    written.push(file);
  }
  if (options.manifest !== undefined) {
    const file = path.join(root, 'split_manifest.json');
    await writeFileAtomic(file, `${JSON.stringify(options.manifest, null, 2)}\n`);
    written.push(file);
  }
  return written;
}
