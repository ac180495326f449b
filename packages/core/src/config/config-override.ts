import { parse as parseYaml } from 'yaml';
import { cloneConfigValue, parseConfigPath, setAtPath, type ConfigTree } from './config-tree.js';
import { configInvalid } from './config-invalid-error.js';
import { liftFlatKeyPath } from './original-format/flat-keys.js';
import { isSecretKey, redactSecretText } from '@skillopt/contract';

/** One `--set key=value` (or the original's `--cfg-options key=value`), parsed. */
export interface ConfigOverride {
  /** The text as the user wrote it, for messages and provenance. */
  text: string;
  /** The dotted key split into segments, after moving an original flat key into its section. */
  path: string[];
  value: unknown;
}

const EXAMPLE = 'write key=value, e.g. train.num_epochs=2 or evaluation.must_pass=[item-1,item-2]';

/**
 * Parses `key=value`. The key is dotted (`optimizer.learning_rate`); an undotted key the original
 * knew in a section (`edit_budget`, `num_epochs`) goes to that section, as its `--cfg-options` did.
 */
export function parseOverride(text: string): ConfigOverride {
  const separator = text.indexOf('=');
  const shown = displayedOverride(text);
  if (separator < 0) throw configInvalid(`override "${shown}" has no "=": ${EXAMPLE}`, { override: shown });
  const key = text.slice(0, separator).trim();
  const segments = parseConfigPath(key);
  if (key === '' || segments.some((segment) => segment === ''))
    throw configInvalid(`override "${shown}" has an empty key or an empty part in its dotted key: ${EXAMPLE}`, { override: shown });
  const value = castOverrideValue(text.slice(separator + 1), shown);
  return { text, path: liftFlatKeyPath(segments, value), value };
}

/**
 * An override as messages and provenance show it: a secret given on the command line (which the
 * config will drop anyway) must not reappear in an error message or in `config print`.
 */
export function displayedOverride(text: string): string {
  const separator = text.indexOf('=');
  const key = separator < 0 ? text : text.slice(0, separator);
  const last = key.trim().split('.').pop() ?? '';
  if (separator >= 0 && isSecretKey(last)) return `${key}=[redacted]`;
  return redactSecretText(text);
}

/**
 * Casts an override's value the way the original did — `true`/`yes` and `false`/`no` (any case)
 * are booleans, then whole numbers, then decimals, else the text — and additionally reads YAML
 * flow values (`[1, 2]`, `{a: 1}`, `null`, `~`, `"quoted"`) so lists, null and strings that look
 * like numbers can be set too, which the original could not.
 */
export function castOverrideValue(raw: string, overrideText = raw): unknown {
  const value = raw.trim();
  if (/^(true|yes)$/i.test(value)) return true;
  if (/^(false|no)$/i.test(value)) return false;
  // Python's int() and float() accept digit-group underscores; so do we.
  if (/^[+-]?\d+(_\d+)*$/.test(value)) return Number(value.replace(/_/g, ''));
  if (/^[+-]?(\d+(_\d+)*)?(\.(\d+(_\d+)*)?)?([eE][+-]?\d+)?$/.test(value) && /\d/.test(value)) return Number(value.replace(/_/g, ''));
  if (/^[[{"']/.test(value) || /^(null|~)$/i.test(value)) {
    try {
      return parseYaml(value) as unknown;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw configInvalid(`override "${overrideText}": the value is not valid YAML (${reason})`, { override: overrideText }, error);
    }
  }
  return value;
}

/**
 * Returns a copy of `config` with each override set, in order (a later one wins). An override
 * replaces the value at its key whole — `--set backends.openai={}` empties that section.
 */
export function applyOverrides(config: ConfigTree, overrides: readonly string[]): ConfigTree {
  const result = cloneConfigValue(config);
  for (const text of overrides) {
    const override = parseOverride(text);
    setAtPath(result, override.path, cloneConfigValue(override.value));
  }
  return result;
}
