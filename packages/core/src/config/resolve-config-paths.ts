import { dirname, isAbsolute, resolve } from 'node:path';
import { cloneConfigValue, formatConfigPath, isConfigMapping, type ConfigTree } from './config-tree.js';
import type { ConfigValueSource } from './config-provenance.js';

/** Core's `env` keys that hold paths. */
const CORE_PATH_KEYS: ReadonlySet<string> = new Set(['skill_init', 'out_root', 'split_dir', 'data_path', 'split_output_dir']);

/**
 * An env package's keys are opaque to core, so its paths are recognised by name — the convention
 * the original's keys already follow (`data_root`, `data_dirs`, `split_dir`, `data_path`).
 */
const PATH_KEY_NAME = /(^|_)(dir|dirs|path|paths|root|file|files)$/;

export function isEnvPathKey(key: string): boolean {
  return CORE_PATH_KEYS.has(key) || PATH_KEY_NAME.test(key);
}

export interface ResolveConfigPathsOptions {
  /** Where the value at a dotted key came from. */
  sourceOf: (path: string) => ConfigValueSource | undefined;
  /** The directory that relative paths of overrides and data layers are relative to. */
  workingDirectory: string;
  /**
   * Resolve paths of files against the working directory too: the original's configs wrote paths
   * relative to its repository root, where it was run from.
   */
  filePathsFromWorkingDirectory: boolean;
}

/**
 * Makes the relative paths of `env` absolute. A path written in a config file is relative to that
 * file's directory — so `split_dir: ../../datasets/demo` means the same wherever the run starts,
 * and a base file's paths stay right when another directory's file includes it. A path given on
 * the command line is relative to the working directory, one in a data layer to the layer's
 * directory (the working directory when it has none). Empty values, absolute
 * paths, `~` paths and URLs are left as they are.
 */
export function resolveConfigPaths(config: ConfigTree, options: ResolveConfigPathsOptions): ConfigTree {
  const env = config.env;
  if (!isConfigMapping(env)) return config;
  const result = cloneConfigValue(config);
  const resolvedEnv = result.env as ConfigTree;
  for (const [key, value] of Object.entries(env)) {
    if (!isEnvPathKey(key)) continue;
    const source = options.sourceOf(formatConfigPath(['env', key]));
    const base =
      source?.kind === 'file' && !options.filePathsFromWorkingDirectory
        ? dirname(source.path)
        : source?.kind === 'inline' && source.directory
          ? source.directory
          : options.workingDirectory;
    if (typeof value === 'string') resolvedEnv[key] = resolvePath(value, base);
    else if (Array.isArray(value)) resolvedEnv[key] = value.map((item: unknown) => (typeof item === 'string' ? resolvePath(item, base) : item));
  }
  return result;
}

function resolvePath(value: string, base: string): string {
  if (value.trim() === '' || isAbsolute(value) || value.startsWith('~') || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  return resolve(base, value);
}
