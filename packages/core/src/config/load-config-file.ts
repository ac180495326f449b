import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ConfigTree } from './config-tree.js';
import { configInvalid } from './config-invalid-error.js';
import { deepMerge } from './deep-merge.js';
import { parseConfigYaml } from './yaml-config-text.js';

/** The key that names the file(s) a config inherits from, as in the original. */
export const BASE_KEY = '_base_';

/** One file's own keys (without `_base_`), with the file that included it when it is a base. */
export interface ConfigFileLayer {
  /** Absolute path of the file. */
  path: string;
  /** Absolute path of the file whose `_base_` named this one; absent for the file that was asked for. */
  includedBy?: string;
  config: ConfigTree;
}

export interface LoadedConfigFile {
  /** Absolute path of the file that was asked for. */
  path: string;
  /** The file merged over its bases. */
  config: ConfigTree;
  /** Every file that contributed, in merge order: the deepest base first, the asked-for file last. */
  layers: ConfigFileLayer[];
}

/**
 * Reads a YAML config file and everything it inherits. `_base_` is a path, or a list of paths
 * applied in order, each relative to the file that names it; bases may have bases. A file that
 * (indirectly) includes itself is an error naming the whole chain.
 */
export async function loadConfigFile(path: string): Promise<LoadedConfigFile> {
  const absolute = resolve(path);
  const layers = await loadConfigLayers(absolute);
  let config: ConfigTree = {};
  for (const layer of layers) config = deepMerge(config, layer.config);
  return { path: absolute, config, layers };
}

/** The layers of `loadConfigFile`, for callers that track which file set which key. */
export async function loadConfigLayers(path: string): Promise<ConfigFileLayer[]> {
  return collectLayers(resolve(path), undefined, []);
}

async function collectLayers(path: string, includedBy: string | undefined, chain: readonly string[]): Promise<ConfigFileLayer[]> {
  if (chain.includes(path)) throw configInvalid(`_base_ inheritance forms a cycle: ${[...chain, path].join(' -> ')}`, { chain: [...chain, path] });

  const text = await readConfigText(path, includedBy);
  const parsed = parseConfigYaml(text, path);
  const { [BASE_KEY]: baseValue, ...own } = parsed;
  const layers: ConfigFileLayer[] = [];
  for (const basePath of basePaths(baseValue, path)) layers.push(...(await collectLayers(basePath, path, [...chain, path])));
  layers.push(includedBy === undefined ? { path, config: own } : { path, includedBy, config: own });
  return layers;
}

function basePaths(value: unknown, file: string): string[] {
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  return entries.map((entry) => {
    if (typeof entry !== 'string' || entry.trim() === '')
      throw configInvalid(`${file}: _base_ must be a file path or a list of file paths, got ${JSON.stringify(entry)}`, { file });
    return resolve(dirname(file), entry);
  });
}

async function readConfigText(path: string, includedBy: string | undefined): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error);
    const where = includedBy === undefined ? '' : ` (named by _base_ in ${includedBy})`;
    throw configInvalid(`cannot read config file ${path}${where}: ${reason}`, { file: path, ...(includedBy ? { includedBy } : {}) }, error);
  }
}
