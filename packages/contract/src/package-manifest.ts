import type { AgentRunner } from './agent-runner.js';
import type { ChatModel } from './chat-model.js';
import type { ModelRole } from './call-purpose.js';
import type { Environment } from './environment.js';
import type { PriceTable } from './price-table.js';
import type { TaskItem } from './task-item.js';
import { SUPPORTED_SPECIFICATION_VERSIONS, type SpecificationVersion } from './specification-version.js';

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
 * What an env or backend package says about itself. `id` is the short name a config uses
 * (`searchqa`, `openai`); `configSchema` validates its section (`env` or `backends.<id>`).
 */
export interface PackageManifest<Kind extends PackageKind = PackageKind, Config = unknown> {
  kind: Kind;
  id: string;
  specificationVersion: SpecificationVersion;
  configSchema: ConfigSchema<Config>;
  description?: string;
}

/** What an env package exports. */
export interface EnvironmentPackage<Config = unknown> {
  manifest: PackageManifest<'env', Config>;
  createEnvironment(config: Config): Environment | Promise<Environment>;
}

export interface ModelRequest {
  role: ModelRole;
  /** The model to use; a backend may fall back to its own per-role default when absent. */
  modelId?: string;
}

/**
 * A configured backend. A chat API implements `createChatModel`, an agent harness
 * `createAgentRunner`; one that can do both implements both.
 */
export interface Backend {
  readonly id: string;
  createChatModel?(request: ModelRequest): ChatModel;
  createAgentRunner?(request: ModelRequest): AgentRunner;
  /**
   * Optional, for simulators only: core calls it once with every item the run's env loaded, before
   * the first model call. The simulated model builds its answer key (its labelled, simulated
   * knowledge) from the items' `question` and `references`; real providers do not implement it.
   */
  receiveTaskItems?(items: readonly TaskItem[]): void | Promise<void>;
}

/** What a backend package exports. */
export interface BackendPackage<Config = unknown> {
  manifest: PackageManifest<'backend', Config>;
  createBackend(config: Config): Backend | Promise<Backend>;
  /** Optional: the default prices of this provider's models, each with its source and date. */
  priceTable?: PriceTable;
}

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
  if (!SUPPORTED_SPECIFICATION_VERSIONS.includes(version))
    return `it was written for contract ${version}; this release supports ${SUPPORTED_SPECIFICATION_VERSIONS.join(', ')}`;
  if (typeof module[factory] !== 'function') return `it does not export a \`${factory}\` function`;
  return undefined;
}
