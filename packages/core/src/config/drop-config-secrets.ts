import { cloneConfigValue, formatConfigPath, getAtPath, isConfigMapping, type ConfigTree } from './config-tree.js';
import { configWarning, type ConfigWarning } from './config-warning.js';
import { isSecretKey } from '@skillopt/contract';

/**
 * Secrets come from the environment only: a key in a config file ends up in config.json, in
 * version control and in bug reports. So an API key or token found in a configuration is removed
 * (never used) with a warning that names the environment variable to set instead.
 */
export function dropConfigSecrets(config: ConfigTree): { config: ConfigTree; warnings: ConfigWarning[]; dropped: string[] } {
  const result = cloneConfigValue(config);
  const warnings: ConfigWarning[] = [];
  const dropped: string[] = [];
  visit(result, [], (path) => {
    const dotted = formatConfigPath(path);
    dropped.push(dotted);
    const variable = environmentVariableFor(config, path);
    const instead = variable
      ? `set the environment variable ${variable} instead`
      : 'give it to the package through the environment variable its documentation names';
    warnings.push(
      configWarning('secret-dropped', `${dotted} holds a secret, and secrets are never read from config files; it was ignored — ${instead}`, dotted),
    );
  });
  return { config: result, warnings, dropped };
}

function visit(tree: ConfigTree, path: string[], onDrop: (path: string[]) => void): void {
  for (const [key, value] of Object.entries(tree)) {
    const here = [...path, key];
    if (isSecretKey(key)) {
      delete tree[key];
      if (value !== undefined && value !== null && value !== '') onDrop(here);
    } else if (isConfigMapping(value)) visit(value, here, onDrop);
  }
}

const ROLES = new Set(['target', 'optimizer']);

/**
 * The variable that carries this secret in the environment. For the backends we know the
 * variable their providers use (the same names as the original's, so existing shells keep
 * working); elsewhere the package's own upper-case name is the convention.
 */
function environmentVariableFor(config: ConfigTree, path: readonly string[]): string | undefined {
  const key = (path[path.length - 1] ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  if (path[0] === 'backends' && path.length >= 3) {
    const id = path[1] as string;
    const role = path.length >= 4 && ROLES.has(path[2] as string) ? (path[2] as string).toUpperCase() : undefined;
    const section = getAtPath(config, ['backends', id]);
    const roleSection = role ? getAtPath(section, [role.toLowerCase()]) : undefined;
    const preset = (getAtPath(roleSection, ['preset']) ?? getAtPath(section, ['preset'])) as unknown;
    const prefix = backendVariablePrefix(id, typeof preset === 'string' ? preset : undefined);
    const variable = `${prefix}_${key.endsWith('API_KEY') || key === 'APIKEY' ? 'API_KEY' : key}`;
    return role && preset === 'azure' ? `${role}_${variable}` : variable;
  }
  if (path[0] === 'env' && path.length >= 2) {
    const name = getAtPath(config, ['env', 'name']);
    if (typeof name === 'string' && /^[a-z0-9-]+$/i.test(name)) return `${name.toUpperCase().replace(/-/g, '_')}_${key}`;
  }
  return undefined;
}

function backendVariablePrefix(id: string, preset: string | undefined): string {
  if (id === 'openai') {
    if (preset === 'azure') return 'AZURE_OPENAI';
    if (preset === 'qwen') return 'QWEN_CHAT';
    if (preset === 'minimax') return 'MINIMAX';
    return 'OPENAI';
  }
  if (id === 'anthropic' || id === 'claude-code') return 'ANTHROPIC';
  if (id === 'copilot') return 'COPILOT_PROVIDER';
  if (id === 'cursor') return 'CURSOR';
  return id.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
