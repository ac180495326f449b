import type { ModelRole } from '@skillopt/contract';
import { backendConfigError } from './backend-config.js';

/**
 * Reading a backend's settings and keys from the environment, with one precedence for every
 * backend:
 *
 * 1. `<ROLE>_<STEM>_<SETTING>` (`TARGET_OPENAI_API_KEY`): one role's own value, so the target and
 *    the optimizer can use different keys or servers;
 * 2. `<STEM>_<ROLE>_<SETTING>` (`AZURE_OPENAI_TARGET_API_KEY`), only where the original SkillOpt
 *    spelled it that way;
 * 3. `<STEM>_<SETTING>` (`OPENAI_API_KEY`): the backend's value for every role;
 * 4. the provider's own conventional names (`DASHSCOPE_API_KEY`), read last.
 *
 * The first variable set to something other than blanks wins. A config key that names a variable
 * (`api_key_env`) replaces the whole chain with that one variable. API keys are read from here
 * only, never from a config file, so they never land in a run's recorded config.
 */

/** The process environment, or a stand-in for it (tests, embedding applications). */
export type EnvironmentSource = Readonly<Record<string, string | undefined>>;

/** A variable that was set, with its name (for messages) and its trimmed value. */
export interface FoundSetting {
  name: string;
  value: string;
}

/** The first of `names` that is set to something other than blanks, or undefined. */
export function readEnvironmentSetting(environment: EnvironmentSource, names: readonly string[]): FoundSetting | undefined {
  for (const name of names) {
    const value = environment[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

export interface SettingVariablesOptions {
  /** The backend's prefix: `OPENAI`, `AZURE_OPENAI`, `ANTHROPIC`. */
  stem: string;
  /** The setting: `API_KEY`, `BASE_URL`, `ENDPOINT`. */
  setting: string;
  /** The role whose own variables come first; absent: only the shared ones. */
  role?: ModelRole;
  /** Whether `<STEM>_<ROLE>_<SETTING>` is read too (the original's spelling for Azure). */
  roleAfterStem?: boolean;
  /** The provider's own names for the setting, read after ours. */
  conventionalNames?: readonly string[];
}

/** The variables that may hold a setting, in the precedence above. */
export function settingVariables(options: SettingVariablesOptions): string[] {
  const { stem, setting, role } = options;
  const roleName = role?.toUpperCase();
  return [
    ...(roleName ? [`${roleName}_${stem}_${setting}`] : []),
    ...(roleName && options.roleAfterStem ? [`${stem}_${roleName}_${setting}`] : []),
    `${stem}_${setting}`,
    ...(options.conventionalNames ?? []),
  ];
}

export interface ApiKeyLookup {
  /** The backend's id, named in the message (`backends.<id>`). */
  backendId: string;
  /** The variables to read, in precedence order (see `settingVariables`). */
  variables: readonly string[];
  /** The role the key is for, named in the message. */
  role?: ModelRole;
  /** What else the user may do, appended to the message (`or use auth_mode: entra`). */
  hint?: string;
}

/**
 * The API key from the first variable of `lookup.variables` that is set. When none is, a
 * `config-invalid` error that names every variable it read and never echoes a value: a missing
 * key is a problem of the user's set-up, found before any call is made.
 */
export function readApiKey(environment: EnvironmentSource, lookup: ApiKeyLookup): FoundSetting {
  const found = readEnvironmentSetting(environment, lookup.variables);
  if (found) return found;
  const forWhom = lookup.role ? ` for the ${lookup.role}` : '';
  throw backendConfigError(
    lookup.backendId,
    `no API key${forWhom} in the environment: set ${lookup.variables.join(' or ')}${lookup.hint ? ` (${lookup.hint})` : ''}`,
    { variables: [...lookup.variables], ...(lookup.role ? { role: lookup.role } : {}) },
  );
}
