import { cloneConfigValue, isConfigMapping, type ConfigTree } from './config-tree.js';

/**
 * Layers a child configuration over its base: mappings are merged key by key, and anything else
 * (a scalar, a list, null) in the child replaces the base's value whole. Lists are replaced rather
 * than concatenated so a child can shorten a base's list, as in the original.
 */
export function deepMerge(base: ConfigTree, child: ConfigTree): ConfigTree {
  const merged = cloneConfigValue(base);
  for (const [key, value] of Object.entries(child)) {
    const existing = merged[key];
    merged[key] = isConfigMapping(existing) && isConfigMapping(value) ? deepMerge(existing, value) : cloneConfigValue(value);
  }
  return merged;
}
