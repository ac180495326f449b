import { resolve } from 'node:path';
import { cloneConfigValue, isConfigMapping, setAtPath, type ConfigTree } from './config-tree.js';
import { configInvalid } from './config-invalid-error.js';
import { ConfigProvenance, describeConfigSource, type ConfigValueSource } from './config-provenance.js';
import type { ConfigWarning } from './config-warning.js';
import { composeConfigSchema, type ComposedConfigSchema } from './compose-config-schema.js';
import { displayedOverride, parseOverride } from './config-override.js';
import type { SkillOptConfig } from './core-config-schema.js';
import { deepMerge } from './deep-merge.js';
import { BASE_KEY, loadConfigLayers } from './load-config-file.js';
import { liftFlatLegacyKeys } from './original-format/flat-keys.js';
import { translateOriginalConfig } from './original-format/translate-original-config.js';
import { resolveConfigPaths } from './resolve-config-paths.js';
import { validateConfig } from './validate-config.js';

/**
 * One layer of configuration: a YAML file (by path), or data with a name for messages — e.g. the
 * project defaults cosmiconfig discovered. Data may have `_base_`, resolved against `directory`
 * (default: the working directory).
 */
export type ConfigLayerInput = string | { file: string } | { name: string; config: unknown; directory?: string };

export interface ResolveConfigOptions {
  /** Layers from lowest to highest precedence, e.g. [user defaults, project defaults, --config file]. */
  layers?: readonly ConfigLayerInput[];
  /** `--set` / `--cfg-options` overrides, applied after every layer, in order. */
  overrides?: readonly string[];
  /** The composed schema; default: core's alone (every package section passes with a warning). */
  schema?: ComposedConfigSchema;
  /** What relative paths of overrides and data layers are relative to; default: process.cwd(). */
  workingDirectory?: string;
}

export interface ResolvedConfig {
  config: SkillOptConfig;
  warnings: ConfigWarning[];
  /** Where each leaf of `config` came from, by dotted key. */
  sources: Record<string, ConfigValueSource>;
  /** Every config file that was read, bases included, in merge order. */
  files: string[];
  /** Whether the input was written for the original (its keys were translated). */
  originalFormat: boolean;
}

/**
 * The whole configuration pipeline: read each layer (files with their `_base_` chains), put the
 * original's flat keys into sections per layer, merge (schema defaults < base files < file <
 * overrides), translate the original's format, make `env` paths absolute (relative to the file
 * that wrote them), drop secrets, validate against the composed schema — and record where every
 * value came from. A validation error names the file (or
 * override) that set each offending value.
 */
export async function resolveConfig(options: ResolveConfigOptions = {}): Promise<ResolvedConfig> {
  const provenance = new ConfigProvenance();
  const files: string[] = [];
  let merged: ConfigTree = {};
  let flatLegacy = false;

  const addLayer = (layer: ConfigTree, source: ConfigValueSource): void => {
    const lifted = liftFlatLegacyKeys(layer);
    flatLegacy ||= lifted.flatLegacy;
    merged = deepMerge(merged, lifted.config);
    provenance.recordLayer(lifted.config, source);
  };

  for (const input of options.layers ?? []) {
    if (typeof input === 'string' || 'file' in input) {
      for (const layer of await loadConfigLayers(typeof input === 'string' ? input : input.file)) {
        files.push(layer.path);
        addLayer(layer.config, layer.includedBy ? { kind: 'file', path: layer.path, includedBy: layer.includedBy } : { kind: 'file', path: layer.path });
      }
      continue;
    }
    if (input.config === undefined || input.config === null) continue;
    if (!isConfigMapping(input.config)) throw configInvalid(`${input.name}: a configuration must be a mapping of sections`, { layer: input.name });
    const { [BASE_KEY]: base, ...own } = input.config;
    if (base !== undefined && base !== null) {
      const bases = Array.isArray(base) ? base : [base];
      for (const entry of bases) {
        if (typeof entry !== 'string') throw configInvalid(`${input.name}: _base_ must be a file path or a list of file paths`, { layer: input.name });
        for (const layer of await loadConfigLayers(resolve(input.directory ?? options.workingDirectory ?? process.cwd(), entry))) {
          files.push(layer.path);
          addLayer(layer.config, { kind: 'file', path: layer.path, includedBy: layer.includedBy ?? input.name });
        }
      }
    }
    addLayer(
      cloneConfigValue(own),
      input.directory ? { kind: 'inline', name: input.name, directory: resolve(input.directory) } : { kind: 'inline', name: input.name },
    );
  }

  for (const text of options.overrides ?? []) {
    const override = parseOverride(text);
    setAtPath(merged, override.path, cloneConfigValue(override.value));
    provenance.recordValue(override.path, override.value, { kind: 'override', text: displayedOverride(text.trim()) });
  }

  const schema = options.schema ?? composeConfigSchema();
  const translated = translateOriginalConfig(merged, {
    flatLegacy,
    // Each loaded backend package translates its own slice of the original's keys.
    backendPackages: schema.backends,
    isInherited: (dottedKey) => {
      const source = provenance.nearestSourceOf(dottedKey);
      return source?.kind === 'file' && source.includedBy !== undefined;
    },
  });
  provenance.applyMoves(translated.moves);

  const workingDirectory = options.workingDirectory ?? process.cwd();
  const withPaths = resolveConfigPaths(translated.config, {
    sourceOf: (path) => provenance.nearestSourceOf(path),
    workingDirectory,
    filePathsFromWorkingDirectory: translated.originalFormat,
  });

  const validated = validateConfig(withPaths, schema, {
    describeSource: (path) => {
      const source = provenance.nearestSourceOf(path);
      return source ? `set in ${describeConfigSource(source)}` : undefined;
    },
  });

  return {
    config: validated.config,
    warnings: [...translated.warnings, ...validated.warnings],
    sources: provenance.sourcesOf(validated.config),
    files,
    originalFormat: translated.originalFormat,
  };
}
