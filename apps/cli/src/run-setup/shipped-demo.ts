import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SearchQaRawItem } from '@skillopt/env-searchqa';

/**
 * The demo shipped in the CLI's package: the build copies the repository's configs/demo,
 * configs/_base_ and datasets/demo into dist/demo with their relative layout (tsup.config.ts), so
 * an install from npm alone trains it. `cliRoot` is the package's directory (oclif's config.root).
 */
export function shippedDemoConfigFile(cliRoot: string): string {
  return path.join(cliRoot, 'dist', 'demo', 'configs', 'demo', 'default.yaml');
}

/** One split of the demo's questions, in SearchQA's split-directory format. */
export async function readShippedDemoItems(cliRoot: string, split: 'train' | 'val' | 'test'): Promise<SearchQaRawItem[]> {
  const file = path.join(cliRoot, 'dist', 'demo', 'datasets', 'demo', split, 'items.json');
  return JSON.parse(await readFile(file, 'utf8')) as SearchQaRawItem[];
}
