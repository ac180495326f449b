import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { ConfigLayerInput } from '@skillopt/core';

const SEARCH_PLACES = [
  'package.json',
  'skillopt.config.yaml',
  'skillopt.config.yml',
  'skillopt.config.json',
  'skillopt.config.js',
  'skillopt.config.cjs',
  'skillopt.config.mjs',
  '.skilloptrc',
  '.skilloptrc.yaml',
  '.skilloptrc.yml',
  '.skilloptrc.json',
];

/**
 * The project's defaults, discovered as tools of this kind do: `skillopt.config.*`, `.skilloptrc*`
 * or the `skillopt` key of package.json, from the working directory up to the project root. A
 * YAML file is read by core's loader (so `_base_` and line numbers work); anything else is data.
 */
export async function discoverProjectConfig(workingDirectory: string): Promise<ConfigLayerInput | undefined> {
  const explorer = cosmiconfig('skillopt', { searchPlaces: SEARCH_PLACES, searchStrategy: 'project' });
  const found = await explorer.search(workingDirectory);
  if (found === null || found.isEmpty) return undefined;
  if (/\.ya?ml$/.test(found.filepath)) return { file: found.filepath };
  return { name: path.relative(workingDirectory, found.filepath) || found.filepath, config: found.config, directory: path.dirname(found.filepath) };
}
