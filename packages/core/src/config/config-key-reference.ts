import { coreConfigSchema } from './core-config-schema.js';
import { schemaDefault, schemaDescription, schemaKeys, unwrapSchema } from './schema-introspection.js';

/** One documented key of core's configuration. */
export interface ConfigKeyReference {
  /** Dotted key, e.g. `train.num_epochs`. */
  path: string;
  description: string;
  /** Present when the key has a default. */
  default?: { value: unknown };
}

/**
 * Every key of core's schema with its documentation and default, read from the schema itself so
 * `skillopt config` and docs/configuration.md cannot drift from what validation accepts.
 */
export function listConfigKeys(): ConfigKeyReference[] {
  const keys: ConfigKeyReference[] = [];
  const visit = (schema: unknown, prefix: string[]): void => {
    for (const key of schemaKeys(schema) ?? []) {
      const child = (unwrapSchema(schema) as { shape: Record<string, unknown> }).shape[key];
      const path = [...prefix, key];
      const nested = schemaKeys(child);
      if (nested && schemaDescription(child) === undefined) {
        visit(child, path);
        continue;
      }
      const entry: ConfigKeyReference = { path: path.join('.'), description: schemaDescription(child) ?? '' };
      const fallback = schemaDefault(child);
      if (fallback) entry.default = fallback;
      keys.push(entry);
      if (nested) visit(child, path);
    }
  };
  visit(coreConfigSchema, []);
  return keys;
}
