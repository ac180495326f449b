import { cloneConfigValue, formatConfigPath, getAtPath, isConfigMapping, type ConfigTree } from './config-tree.js';
import { configWarning, type ConfigWarning } from './config-warning.js';
import { isSecretKey, type ModelRole, type PackageManifest } from '@skillopt/contract';

/**
 * Secrets come from the environment only: a key in a config file ends up in config.json, in
 * version control and in bug reports. So an API key or token found in a configuration is removed
 * (never used) with a warning that names the environment variable to set instead.
 */
export function dropConfigSecrets(
  config: ConfigTree,
  backends: Readonly<Record<string, PackageManifest>> = {},
): { config: ConfigTree; warnings: ConfigWarning[]; dropped: string[] } {
  const result = cloneConfigValue(config);
  const warnings: ConfigWarning[] = [];
  const dropped: string[] = [];
  visit(result, [], (path) => {
    const dotted = formatConfigPath(path);
    dropped.push(dotted);
    const variable = environmentVariableFor(config, path, backends);
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

const ROLES = new Set<string>(['target', 'optimizer', 'judge']);

/**
 * The variable that carries this secret in the environment: for a backend, the one its package
 * says it reads (its manifest's `credentials`, derived from the table its code reads keys with);
 * for a package that declares none or is not installed, and for an env, the convention of the
 * package's upper-case name.
 */
function environmentVariableFor(config: ConfigTree, path: readonly string[], backends: Readonly<Record<string, PackageManifest>>): string | undefined {
  const key = (path[path.length - 1] ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  if (path[0] === 'backends' && path.length >= 3) {
    const id = path[1] as string;
    const role = path.length >= 4 && ROLES.has(path[2] as string) ? (path[2] as ModelRole) : undefined;
    const credentials = backends[id]?.credentials;
    if (credentials) return credentials.variableFor(getAtPath(config, ['backends', id]), role);
    return `${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${key.endsWith('API_KEY') || key === 'APIKEY' ? 'API_KEY' : key}`;
  }
  if (path[0] === 'env' && path.length >= 2) {
    const name = getAtPath(config, ['env', 'name']);
    if (typeof name === 'string' && /^[a-z0-9-]+$/i.test(name)) return `${name.toUpperCase().replace(/-/g, '_')}_${key}`;
  }
  return undefined;
}
