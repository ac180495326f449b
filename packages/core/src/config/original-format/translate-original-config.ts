import { cloneConfigValue, getAtPath, isConfigMapping, setAtPath, type ConfigTree } from '../config-tree.js';
import { configWarning, type ConfigWarning } from '../config-warning.js';
import { envCoreShape } from '../core-config-schema.js';
import { isSecretKey, type OriginalConfigFormat, type OriginalKeyFamily, type PackageManifest } from '@skillopt/contract';
import {
  backendOf,
  BACKENDS_WITH_OWN_DEFAULT_MODEL,
  isDefaultBackendLabel,
  isUnsetRole,
  OPENAI_DEFAULT_MODEL_NAMES,
  ORIGINAL_MEANING_OF_OUR_NAMES,
  rolesOfBackendLabel,
  translateBackendName,
  type TranslatedBackend,
} from './backend-names.js';
import { matchOriginalBackendKey, type OriginalKeyMatch } from './original-key-names.js';

/**
 * A key that translation moved, copied or dropped, so provenance can follow the value: the
 * user wrote `model.azure_openai_endpoint` in a file, the run uses `backends.openai.endpoint`.
 */
export interface ConfigKeyMove {
  from: string;
  /** Absent when the key was dropped. */
  to?: string;
  /** The source key stays (a derived key, e.g. a preset derived from a role's backend name). */
  copy?: boolean;
}

export interface TranslatedConfig {
  config: ConfigTree;
  warnings: ConfigWarning[];
  moves: ConfigKeyMove[];
  /** Whether the config was written for the original (and why), which changes two alias meanings. */
  originalFormat: boolean;
  reasons: string[];
}

export interface TranslateOriginalConfigOptions {
  /** One of the layers was a flat legacy config (known from lifting, before the merge). */
  flatLegacy?: boolean;
  /**
   * The manifests of the backend packages that are loaded, by id: each translates its own slice
   * of the original's keys (`originalConfig`). Keys of a package not given pass through under
   * their own names (without prefix) into `backends.<id>`, where validation warns that the
   * package is not installed.
   */
  backendPackages?: Readonly<Record<string, Pick<PackageManifest, 'originalConfig'>>>;
  /**
   * Whether the value at a dotted key came from a base file (`_base_`) rather than the config the
   * user ran: an inherited setting of a backend no role uses was not chosen, so ignoring it needs
   * no warning.
   */
  isInherited?: (dottedKey: string) => boolean;
}

type Role = 'optimizer' | 'target';
const ROLES: readonly Role[] = ['optimizer', 'target'];

/** Keys the original had that do nothing here, with the reason the warning gives. */
const RETIRED_KEYS: ReadonlyArray<{ path: [string, string]; reason: string; silentWhen?: (value: unknown) => boolean }> = [
  {
    path: ['train', 'steps_per_epoch'],
    reason: 'steps per epoch are derived from train_size, batch_size and accumulation (the original overwrote this key too)',
  },
  { path: ['gradient', 'max_analyst_rounds'], reason: 'the original parsed it but never used it, and had already retired it' },
  { path: ['optimizer', 'meta_learning_rate'], reason: 'the original never read it' },
  {
    path: ['model', 'codex_trace_to_optimizer'],
    reason: "an agent runner's transcript always reaches the optimizer here",
    silentWhen: (value) => value === true || value === '' || value === null,
  },
];

/**
 * Translates a configuration written for the original (upstream-core §7) into ours; a config
 * already in our format passes through unchanged. What changes: backend names (core's name map:
 * `openai_chat` → `openai`, `claude_code_exec` → `claude-code`, …, plus the settings each name
 * implies, as its package declares), the flat backend keys of `model` (→ `backends.<id>.…`, per-role
 * variants → `backends.<id>.<role>.…`, each as its package declares), the retired `model.backend`
 * label (→ the two role keys), core's retired keys (dropped, warned), `livemathematicianbench` →
 * `livemath`, and empty strings, which meant "unset" in the original. API keys are dropped with a
 * warning naming the environment variable to use. No backend's keys are known here: a package
 * not given in `backendPackages` gets its keys under their own names.
 */
export function translateOriginalConfig(input: ConfigTree, options: TranslateOriginalConfigOptions = {}): TranslatedConfig {
  const config = cloneConfigValue(input);
  const warnings: ConfigWarning[] = [];
  const moves: ConfigKeyMove[] = [];
  const reasons = detectOriginalFormat(config, options);
  const originalFormat = reasons.length > 0;

  // An original config without a model section still meant the original's default backend.
  if (originalFormat && !isConfigMapping(config.model)) config.model = {};
  const model = isConfigMapping(config.model) ? config.model : undefined;
  if (model) {
    translateBackendLabel(model, warnings, moves);
    const roles = translateRoleBackends(model, originalFormat, warnings, moves);
    dropDefaultModelNames(model, roles, warnings, moves);
    normaliseEfforts(model, moves);
    const packages = { declarations: options.backendPackages ?? {}, isInherited: options.isInherited ?? (() => false) };
    moveBackendKeys(config, model, roles, packages, warnings, moves);
    placeImpliedBackendSettings(config, roles, packages, moves);
  }
  dropRetiredKeys(config, warnings, moves);
  translateEnv(config, originalFormat, warnings, moves);
  removeEmptySections(config);
  return { config, warnings, moves, originalFormat, reasons };
}

function detectOriginalFormat(config: ConfigTree, options: TranslateOriginalConfigOptions): string[] {
  const reasons: string[] = [];
  if (options.flatLegacy) reasons.push('flat legacy keys at the top level');
  const model = isConfigMapping(config.model) ? config.model : {};
  if (model.backend !== undefined) reasons.push('model.backend');
  for (const key of Object.keys(model)) if (matchOriginalBackendKey(key)) reasons.push(`model.${key}`);
  for (const role of ROLES) {
    const name = model[`${role}_backend`];
    if (typeof name === 'string' && translateBackendName(name)) reasons.push(`model.${role}_backend: ${name}`);
  }
  if (getAtPath(config, ['env', 'name']) === 'livemathematicianbench') reasons.push('env.name: livemathematicianbench');
  for (const { path } of RETIRED_KEYS) if (getAtPath(config, path) !== undefined) reasons.push(path.join('.'));
  return reasons;
}

function translateBackendLabel(model: ConfigTree, warnings: ConfigWarning[], moves: ConfigKeyMove[]): void {
  if (!Object.hasOwn(model, 'backend')) return;
  const label = model.backend;
  delete model.backend;
  if (label === undefined || label === null || label === '') {
    moves.push({ from: 'model.backend' });
    return;
  }
  const roles = typeof label === 'string' ? rolesOfBackendLabel(label) : undefined;
  if (!roles) {
    moves.push({ from: 'model.backend' });
    warnings.push(
      configWarning(
        'retired-key',
        `model.backend (${JSON.stringify(label)}) is retired and was ignored: set model.optimizer_backend and model.target_backend`,
        'model.backend',
      ),
    );
    return;
  }
  const applied: string[] = [];
  for (const role of ROLES) {
    const key = `${role}_backend`;
    if (!isUnsetRole(model[key]) || roles[role] === 'openai_chat') continue;
    model[key] = roles[role];
    moves.push({ from: 'model.backend', to: `model.${key}`, copy: true });
    applied.push(`model.${key}: ${backendOf(roles[role]).id}`);
  }
  moves.push({ from: 'model.backend' });
  if (isDefaultBackendLabel(label as string)) return;
  const effect = applied.length > 0 ? `translated into ${applied.join(' and ')}` : 'ignored because both roles name their backends';
  warnings.push(
    configWarning(
      'backend-label-translated',
      `model.backend (${String(label)}) is retired: ${effect}. Set model.optimizer_backend and model.target_backend instead`,
      'model.backend',
    ),
  );
}

function translateRoleBackends(model: ConfigTree, originalFormat: boolean, warnings: ConfigWarning[], moves: ConfigKeyMove[]): Record<Role, TranslatedBackend> {
  const roles = {} as Record<Role, TranslatedBackend>;
  for (const role of ROLES) {
    const key = `${role}_backend`;
    const name = model[key];
    if (typeof name !== 'string' || name.trim() === '') {
      if (name === '' || name === null) {
        delete model[key];
        moves.push({ from: `model.${key}` });
      }
      // Absent: an original config meant its default (Azure OpenAI); ours means the plain OpenAI API.
      roles[role] = originalFormat ? backendOf('openai_chat') : backendOf(typeof name === 'string' ? name : 'openai');
      if (originalFormat) model[key] = roles[role].id;
      continue;
    }
    const translated = translateBackendName(name);
    if (translated) {
      model[key] = translated.id;
      roles[role] = translated;
      continue;
    }
    const changed = ORIGINAL_MEANING_OF_OUR_NAMES[name.trim().toLowerCase()];
    if (changed && originalFormat)
      warnings.push(
        configWarning(
          'backend-alias-meaning',
          `model.${key}: "${name}" meant ${changed.originalMeaning} in the original; here it means ${changed.ours}. Write "${changed.equivalent}" for the CLI`,
          `model.${key}`,
        ),
      );
    roles[role] = backendOf(name);
  }
  return roles;
}

/**
 * The original swapped its OpenAI default model names (gpt-5.4, gpt-5.5) for the backend's own
 * default whenever a role used Claude, Qwen, MiniMax, Cursor or Copilot; keeping the name would
 * ask those backends for a model they do not have.
 */
function dropDefaultModelNames(model: ConfigTree, roles: Record<Role, TranslatedBackend>, warnings: ConfigWarning[], moves: ConfigKeyMove[]): void {
  for (const role of ROLES) {
    const name = model[role];
    if (name === '' || name === null) {
      delete model[role];
      moves.push({ from: `model.${role}` });
      continue;
    }
    if (typeof name !== 'string' || !OPENAI_DEFAULT_MODEL_NAMES.has(name) || !BACKENDS_WITH_OWN_DEFAULT_MODEL.has(roles[role].original)) continue;
    delete model[role];
    moves.push({ from: `model.${role}` });
    warnings.push(
      configWarning(
        'model-name-dropped',
        `model.${role} (${name}) was dropped: with ${roles[role].original} the original used that backend's default model instead, and so does ${roles[role].id} here. Set model.${role} to choose one`,
        `model.${role}`,
      ),
    );
  }
}

function normaliseEfforts(model: ConfigTree, moves: ConfigKeyMove[]): void {
  // The original sent no effort for "" (and "off"); ours spells that `none`.
  if (model.reasoning_effort === '' || model.reasoning_effort === 'off') model.reasoning_effort = 'none';
  // An empty rewrite effort meant "the global one", which is what leaving it out means here.
  if (model.rewrite_reasoning_effort === '' || model.rewrite_reasoning_effort === null) {
    delete model.rewrite_reasoning_effort;
    moves.push({ from: 'model.rewrite_reasoning_effort' });
  }
}

interface BackendPackages {
  declarations: Readonly<Record<string, Pick<PackageManifest, 'originalConfig'>>>;
  isInherited: (dottedKey: string) => boolean;
}

function declarationOf(packages: BackendPackages, packageId: string): OriginalConfigFormat | undefined {
  return packages.declarations[packageId]?.originalConfig;
}

/** The settings a role's original backend name implies in its package's section, as the package declares them. */
function impliedSettings(packages: BackendPackages, backend: TranslatedBackend): Readonly<Record<string, string>> {
  return declarationOf(packages, backend.id)?.backendNames?.[backend.original] ?? {};
}

/** Whether a role reads a key family: its backend is the family's package, under a name the package says reads it. */
function readsFamily(backend: TranslatedBackend, packageId: string, family: OriginalKeyFamily | undefined): boolean {
  return backend.id === packageId && (family?.usedBy === undefined || family.usedBy.includes(backend.original));
}

/** Both roles use the package under names that imply different settings (Azure and Qwen on openai): settings must be per role. */
function impliedSettingsDiffer(roles: Record<Role, TranslatedBackend>, packageId: string, packages: BackendPackages): boolean {
  if (roles.optimizer.id !== packageId || roles.target.id !== packageId) return false;
  return JSON.stringify(impliedSettings(packages, roles.optimizer)) !== JSON.stringify(impliedSettings(packages, roles.target));
}

function secretDroppedMessage(from: string, match: OriginalKeyMatch, family: OriginalKeyFamily | undefined): string {
  const variables = family?.secretVariables;
  const variable = variables ? ((match.role ? variables[match.role] : undefined) ?? variables.shared) : undefined;
  const instead = variable
    ? `set the environment variable ${variable} instead`
    : `set the key in the environment variable the ${match.family.packageId} backend package documents instead`;
  return `${from} holds a secret, and secrets are never read from config files; it was ignored — ${instead}`;
}

/**
 * Moves the original's flat backend keys of `model` into `backends.<id>`, each as its package
 * declares (see OriginalKeyFamily). What stays generic here is what holds for every backend: empty
 * values meant "unset"; secrets are never taken from a file; a key of a backend no role reads is
 * dropped, with a warning unless it was a shipped default or inherited from a base file; a key of
 * our own format wins over the original's spelling; settings go per role when the roles' names
 * imply different settings, or when the key itself was a role variant.
 */
function moveBackendKeys(
  config: ConfigTree,
  model: ConfigTree,
  roles: Record<Role, TranslatedBackend>,
  packages: BackendPackages,
  warnings: ConfigWarning[],
  moves: ConfigKeyMove[],
): void {
  const unused = new Map<string, string[]>();
  const untranslated = new Map<string, string[]>();
  const noteUnused = (name: string, key: string): void => void unused.set(name, [...(unused.get(name) ?? []), key]);
  for (const key of Object.keys(model)) {
    const match = matchOriginalBackendKey(key);
    if (!match) continue;
    const from = `model.${key}`;
    const value = model[key];
    delete model[key];
    const { packageId, name } = match.family;
    const declaration = declarationOf(packages, packageId);
    const family = declaration?.keyFamilies?.find((candidate) => candidate.prefix === match.family.prefix);
    const shippedDefault =
      !match.role &&
      family?.shippedDefaults !== undefined &&
      Object.hasOwn(family.shippedDefaults, match.suffix) &&
      family.shippedDefaults[match.suffix] === value;
    const chosen = !shippedDefault && !packages.isInherited(from);

    if (value === '' || value === null || value === undefined) {
      moves.push({ from });
      continue;
    }
    const retiredReason = family?.retired?.[match.suffix];
    if (retiredReason) {
      moves.push({ from });
      warnings.push(configWarning('retired-key', `${from} is retired and was ignored: ${retiredReason}`, from));
      continue;
    }
    if (isSecretKey(match.suffix)) {
      moves.push({ from });
      warnings.push(configWarning('secret-dropped', secretDroppedMessage(from, match, family), from));
      continue;
    }
    const modelRole = family?.roleModelKeys?.[match.suffix];
    if (modelRole && !match.role) {
      // The original read this key as that role's model when the role used this backend.
      if (readsFamily(roles[modelRole], packageId, family) && model[modelRole] === undefined) {
        model[modelRole] = value;
        moves.push({ from, to: `model.${modelRole}` });
      } else {
        moves.push({ from });
        if (chosen) noteUnused(name, key);
      }
      continue;
    }

    const readers = ROLES.filter((role) => readsFamily(roles[role], packageId, family) && (match.role === undefined || match.role === role));
    if (readers.length === 0) {
      moves.push({ from });
      if (chosen) noteUnused(name, key);
      continue;
    }
    if (declaration !== undefined && family === undefined) untranslated.set(packageId, [...(untranslated.get(packageId) ?? []), key]);
    const ourKey = (family?.renames?.[match.suffix] ?? match.suffix).split('.');
    const perRole = match.role !== undefined || impliedSettingsDiffer(roles, packageId, packages);
    const destinations = perRole ? readers.map((role) => ['backends', packageId, role, ...ourKey]) : [['backends', packageId, ...ourKey]];
    for (const destination of destinations) {
      // A key written in our own format (backends.<id>.…) wins over the original's flat spelling.
      if (getAtPath(config, destination) !== undefined) continue;
      setAtPath(config, destination, cloneConfigValue(value));
      moves.push({ from, to: destination.join('.'), copy: true });
    }
    moves.push({ from });
  }
  for (const [name, keys] of unused) {
    const list = keys.map((key) => `model.${key}`).join(', ');
    warnings.push(configWarning('unused-backend-key', `${list}: settings of ${name}, which neither role uses here; ignored`, `model.${keys[0] ?? ''}`));
  }
  for (const [packageId, keys] of untranslated) {
    const list = keys.map((key) => `model.${key}`).join(', ');
    warnings.push(
      configWarning(
        'value-translated',
        `${list}: the installed backend package "${packageId}" does not say how it reads these keys of the original's format; they were passed to backends.${packageId} under their own names`,
        `model.${keys[0] ?? ''}`,
      ),
    );
  }
}

/**
 * A role's original backend name may imply settings of its package (`qwen_chat` is the openai
 * backend with preset qwen), as the package declares. They go to the shared section when the
 * roles that use the package agree, otherwise to each role's sub-section.
 */
function placeImpliedBackendSettings(config: ConfigTree, roles: Record<Role, TranslatedBackend>, packages: BackendPackages, moves: ConfigKeyMove[]): void {
  for (const id of new Set(ROLES.map((role) => roles[role].id))) {
    const users = ROLES.filter((role) => roles[role].id === id);
    const settingsOfUsers = users.map((role) => impliedSettings(packages, roles[role]));
    const names = new Set(settingsOfUsers.flatMap((settings) => Object.keys(settings)));
    for (const setting of names) {
      const values = settingsOfUsers.map((settings) => settings[setting]);
      const agree = values.every((value) => value === values[0]);
      users.forEach((role, index) => {
        const value = values[index];
        if (value === undefined) return;
        const destination = agree ? ['backends', id, setting] : ['backends', id, role, setting];
        if (getAtPath(config, destination) !== undefined) return;
        setAtPath(config, destination, value);
        moves.push({ from: `model.${role}_backend`, to: destination.join('.'), copy: true });
      });
    }
  }
}

function dropRetiredKeys(config: ConfigTree, warnings: ConfigWarning[], moves: ConfigKeyMove[]): void {
  for (const { path, reason, silentWhen } of RETIRED_KEYS) {
    const section = config[path[0]];
    if (!isConfigMapping(section) || !Object.hasOwn(section, path[1])) continue;
    const value = section[path[1]];
    delete section[path[1]];
    const dotted = path.join('.');
    moves.push({ from: dotted });
    if (!silentWhen?.(value)) warnings.push(configWarning('retired-key', `${dotted} is retired and was ignored: ${reason}`, dotted));
  }
}

const CORE_ENV_KEYS = Object.keys(envCoreShape);

/** The original's built-in initial skills lived in its source tree, which does not exist here. */
const ORIGINAL_INITIAL_SKILL = /^(\.\/)?skillopt\/envs\/[^/]+\/skills\/initial\.md$/;

function translateEnv(config: ConfigTree, originalFormat: boolean, warnings: ConfigWarning[], moves: ConfigKeyMove[]): void {
  const env = config.env;
  if (!isConfigMapping(env)) return;
  if (typeof env.skill_init === 'string' && ORIGINAL_INITIAL_SKILL.test(env.skill_init.trim())) {
    warnings.push(
      configWarning(
        'value-translated',
        `env.skill_init (${env.skill_init}) is the original's built-in initial skill; the env package's own initial skill is used instead`,
        'env.skill_init',
      ),
    );
    delete env.skill_init;
    moves.push({ from: 'env.skill_init' });
  }
  // The original's id of the LiveMathematicianBench env; ours is shorter.
  if (typeof env.name === 'string' && env.name.trim().toLowerCase() === 'livemathematicianbench') env.name = 'livemath';
  for (const key of CORE_ENV_KEYS) {
    if (env[key] === '' || (env[key] === null && originalFormat)) {
      delete env[key];
      moves.push({ from: `env.${key}` });
    }
  }
}

function removeEmptySections(config: ConfigTree): void {
  const model = config.model;
  if (isConfigMapping(model) && Object.keys(model).length === 0) delete config.model;
}
