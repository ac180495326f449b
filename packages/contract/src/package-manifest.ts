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
}

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
  modelId?: string;
}

/**
 * What only a simulated model needs from run setup. Core's run setup calls `receiveTaskItems`
 * once, with every item the run's env loaded, before the first model call; the simulated model
 * builds its answer key (its labelled, simulated knowledge) from the items' `question` and
 * `references`. Real providers have no `simulator` part, and nothing else ever calls it.
 */
export interface SimulatorSetup {
  receiveTaskItems(items: readonly TaskItem[]): void | Promise<void>;
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
