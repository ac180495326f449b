import type { AgentRunner } from './agent-runner.js';
import type { ChatModel } from './chat-model.js';
import type { ModelRole } from './call-purpose.js';
import type { Environment } from './environment.js';
import type { PriceTable } from './price-table.js';
import type { TaskItem } from './task-item.js';
import { isSupportedSpecificationVersion, SUPPORTED_SPECIFICATION_VERSIONS } from './specification-version.js';

/**
 * The zod schema of a package's own config section. Typed structurally rather than as zod's class
 * so that a package built against another copy of zod still fits.
 */
export interface ConfigSchema<Config = unknown> {
  safeParse(input: unknown): { success: true; data: Config } | { success: false; error: unknown };
}

export const PACKAGE_KINDS = ['env', 'backend'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/**
 * What an env or backend package says about itself, version 1 of the package interface (the
 * manifest and its factory). `id` is the short name a config uses (`searchqa`, `openai`);
 * `configSchema` validates its section (`env` or `backends.<id>`).
 */
export interface PackageManifestV1<Kind extends PackageKind = PackageKind, Config = unknown> {
  kind: Kind;
  id: string;
  specificationVersion: 'v1';
  configSchema: ConfigSchema<Config>;
  description?: string;
  /**
   * Backends: how this package reads its slice of a config written for the original SkillOpt. Core
   * finds the package by the original's names and hands it the keys; without this, they pass
   * through under their own names.
   */
  originalConfig?: OriginalConfigFormatV1;
  /**
   * Backends: the environment variables this package reads its secrets from, so that `skillopt
   * doctor` and the warning about a secret dropped from a config name the variables the package
   * really reads (a DeepSeek preset's DEEPSEEK_API_KEY, not OPENAI_API_KEY). Absent: core assumes
   * `<ID>_API_KEY`.
   */
  credentials?: BackendCredentialsV1;
  /**
   * Backends: the key of the package's config section that names a folder it keeps files in
   * between the processes of one run (the handoff backend's `directory`: requests that wait for
   * answers). When the section leaves the key unset, run setup sets it to `<the run's folder>/<id>`
   * — a training run's directory, which `--resume` reopens; for a Sleep night, which is run again
   * rather than resumed, a folder of Sleep's state that the same command uses every time — so the
   * files sit with the run's own, where its next process finds them, not loose in the working
   * directory. A caller with no such folder (`skillopt eval`) leaves the key unset, and the
   * package's own default holds.
   */
  filesDirectoryKey?: string;
}

/** One environment variable that may hold a backend's secret, and what it is for (`OpenAI`, `Qwen (DashScope)`). */
export interface CredentialVariableV1 {
  name: string;
  usedBy: string;
}

/** Where a backend's secrets live: see `PackageManifestV1.credentials`. */
export interface BackendCredentialsV1 {
  /** Every variable that may hold one of its secrets (each role's own variants aside). */
  variables: readonly CredentialVariableV1[];
  /**
   * The one variable to set instead of a secret found in the package's config section: `section`
   * is the section as written (before validation, so it may be anything), `role` the role
   * sub-section the secret sat in, if any.
   */
  variableFor(section: unknown, role: ModelRole | undefined): string;
}

export type CredentialVariable = CredentialVariableV1;
export type BackendCredentials = BackendCredentialsV1;

/**
 * A backend package's slice of the original SkillOpt's config format: the original kept every
 * backend's settings as flat keys of its `model` section (`model.azure_openai_endpoint`,
 * `model.target_qwen_chat_base_url`), ours live in `backends.<id>`. Core's name map sends each
 * key family and each of the original's backend names to its package; the package says here what
 * they mean.
 */
export interface OriginalConfigFormatV1 {
  /**
   * What each of the original's backend names that leads here implies for this package's section,
   * by the original's canonical name: `{ qwen_chat: { preset: 'qwen' } }`. Core writes these
   * settings into `backends.<id>` (a role's sub-section when the two roles disagree).
   */
  backendNames?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The families of the original's flat keys this package reads. */
  keyFamilies?: readonly OriginalKeyFamilyV1[];
}

/** The original-format slice of this release (an alias of the newest version). */
export type OriginalConfigFormat = OriginalConfigFormatV1;

/** The original's keys that begin with one prefix (`azure_openai_`), with their `optimizer_`/`target_` variants. */
export interface OriginalKeyFamilyV1 {
  /** The prefix as the original spelled it, e.g. `azure_openai_` for `model.azure_openai_endpoint`. */
  prefix: string;
  /**
   * The original backend names whose roles read these keys (`['openai_chat']`); a role on this
   * package under another name leaves them unused. Absent: every role on this package reads them.
   */
  usedBy?: readonly string[];
  /** Our key for a suffix whose name changed, dotted for a sub-section (`{ optimizer_model: 'optimizer.model' }`). */
  renames?: Readonly<Record<string, string>>;
  /** Suffixes the original had itself retired, with the reason the warning gives. */
  retired?: Readonly<Record<string, string>>;
  /** Suffixes that set a role's model (`model.<role>`) instead, for that role when it reads the family (`{ model: 'target' }`). */
  roleModelKeys?: Readonly<Record<string, 'target' | 'optimizer'>>;
  /** The values the original's base config shipped for these keys: inherited rather than chosen, so ignoring them needs no warning. */
  shippedDefaults?: Readonly<Record<string, unknown>>;
  /** Where a secret of this family belongs instead (config files never hold one): the environment variable of each role, and of both. */
  secretVariables?: { readonly shared: string; readonly target?: string; readonly optimizer?: string } | undefined;
}

export type OriginalKeyFamily = OriginalKeyFamilyV1;

/** The package manifest of this release (an alias of the newest version). */
export type PackageManifest<Kind extends PackageKind = PackageKind, Config = unknown> = PackageManifestV1<Kind, Config>;

/** What an env package exports. */
export interface EnvironmentPackageV1<Config = unknown> {
  manifest: PackageManifestV1<'env', Config>;
  createEnvironment(config: Config): Environment | Promise<Environment>;
}
export type EnvironmentPackage<Config = unknown> = EnvironmentPackageV1<Config>;

export interface ModelRequest {
  role: ModelRole;
  /** The model to use; a backend may fall back to its own per-role default when absent. */
  modelId?: string | undefined;
}

/** The run's items by split, as run setup loaded them. */
export interface SimulatorSplits {
  readonly train: readonly TaskItem[];
  readonly val: readonly TaskItem[];
  readonly test: readonly TaskItem[];
}

/**
 * What only a simulated model needs from run setup. Core's run setup calls `receiveTaskItems`
 * once, with every item the run's env loaded and the same items by split, before the first model
 * call; the simulated model builds its answer key (its labelled, simulated knowledge) from the
 * items' `question` and `references`, and may treat a split differently (label noise on the
 * selection split, say). `splits` is optional: a caller that has no splits passes the items alone.
 * Real providers have no `simulator` part, and nothing else ever calls it.
 */
export interface SimulatorSetup {
  receiveTaskItems(items: readonly TaskItem[], splits?: SimulatorSplits): void | Promise<void>;
}

/**
 * A configured backend, version 1 of the interface. A chat API implements `createChatModel`, an
 * agent harness `createAgentRunner`; one that can do both implements both.
 */
export interface BackendV1 {
  readonly specificationVersion: 'v1';
  readonly id: string;
  createChatModel?(request: ModelRequest): ChatModel;
  createAgentRunner?(request: ModelRequest): AgentRunner;
  /** Simulators only: see SimulatorSetup. */
  readonly simulator?: SimulatorSetup;
}

/** The backend interface of this release (an alias of the newest version). */
export type Backend = BackendV1;

/** What a backend package exports. */
export interface BackendPackageV1<Config = unknown> {
  manifest: PackageManifestV1<'backend', Config>;
  createBackend(config: Config): Backend | Promise<Backend>;
  /** Optional: the default prices of this provider's models, each with its source and date. */
  priceTable?: PriceTable;
}
export type BackendPackage<Config = unknown> = BackendPackageV1<Config>;

function isPackageManifest(value: unknown, kind: PackageKind): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const manifest = value as Record<string, unknown>;
  const schema = manifest.configSchema as Record<string, unknown> | undefined;
  return (
    manifest.kind === kind &&
    typeof manifest.id === 'string' &&
    /^[a-z0-9][a-z0-9-]*$/.test(manifest.id) &&
    typeof manifest.specificationVersion === 'string' &&
    typeof schema === 'object' &&
    schema !== null &&
    typeof schema.safeParse === 'function'
  );
}

/** Why a loaded module is not a usable env package, or undefined when it is one. */
export function describeEnvironmentPackageProblem(value: unknown): string | undefined {
  return describePackageProblem(value, 'env', 'createEnvironment');
}

/** Why a loaded module is not a usable backend package, or undefined when it is one. */
export function describeBackendPackageProblem(value: unknown): string | undefined {
  return describePackageProblem(value, 'backend', 'createBackend');
}

function describePackageProblem(value: unknown, kind: PackageKind, factory: string): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it exports nothing';
  const module = value as Record<string, unknown>;
  if (!isPackageManifest(module.manifest, kind))
    return `its \`manifest\` export is missing or is not ${kind === 'env' ? 'an env' : 'a backend'} manifest ({kind: '${kind}', id, specificationVersion, configSchema})`;
  const version = (module.manifest as PackageManifest).specificationVersion;
  if (!isSupportedSpecificationVersion('package-manifest', version))
    return `its manifest declares package specification ${JSON.stringify(version)}; this release of the contract defines ${SUPPORTED_SPECIFICATION_VERSIONS['package-manifest'].join(', ')}`;
  if (typeof module[factory] !== 'function') return `it does not export a \`${factory}\` function`;
  return undefined;
}
