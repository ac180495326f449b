import {
  ERROR_CODES,
  SkillOptError,
  type AgentRunner,
  type Backend,
  type ChatModel,
  type Environment,
  type PriceTable,
  type SplitName,
  type Target,
  type TaskItem,
} from '@skillopt/contract';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import type { ConfigLayerInput } from '../config/resolve-config.js';
import { backendSectionFor, environmentSectionFor } from '../config/package-sections.js';
import { readRunConfig } from '../run-reader/run-reader.js';
import { checkResumableRunDirectory } from '../run-store/load-run-state.js';
import { acceptBackend, acceptEnvironment } from '../resolution/specification-versions.js';
import type { PackageResolver } from '../resolution/package-resolver.js';
import { resolveRunConfig, type ResolvedRunConfig } from './configured-packages.js';
import { roleChatModel } from './role-chat-model.js';
import { checkTrainingSplits } from './training-splits.js';

/** Every split an env loaded, once, in its own order. */
export type LoadedSplits = Readonly<Record<SplitName, readonly TaskItem[]>>;

export interface PrepareRunOptions {
  /** The config layers in order (the discovered project config, then --config); unused on resume. */
  layers: readonly ConfigLayerInput[];
  /** Resume the run in this directory: its config.json is the config (overrides still apply). */
  resumeDirectory?: string;
  /** `--set` and `--cfg-options` values, in order. */
  overrides: readonly string[];
  workingDirectory: string;
  /** Finds env and backend packages by name. */
  resolver: PackageResolver;
  /** `skillopt eval` makes no optimizer call, so it needs no optimizer model; a run that does trains, and needs train and val items. */
  needsOptimizer: boolean;
  /**
   * Called once the config is resolved, before the env and the backends are created: where a
   * distributed run makes this process's rate limits count in a place its workers share (a
   * backend keeps the limiter it was given when it was created).
   */
  beforeBackendsCreated?: (config: SkillOptConfig) => Promise<void> | void;
  /**
   * The run's folder for files its backends keep between its processes (`filesDirectoryKey` of
   * their manifests), or how the resolved config names it: `skillopt train`'s run directory (from
   * --out, env.out_root or a default name), which --resume reopens; for a Sleep night, a folder of
   * Sleep's state that the same command uses every time. Absent: the packages' own defaults hold.
   */
  backendFilesDirectory?: string | ((config: SkillOptConfig) => string);
}

/** A run ready to train or evaluate: its config, its packages and the parts made from them. */
export interface PreparedRun extends ResolvedRunConfig {
  environment: Environment;
  target: Target;
  optimizer: ChatModel | undefined;
  /** With `optimizer.mode: agent`: the optimizer backend's agent runner, which edits the skill in a workspace. */
  optimizerAgent: AgentRunner | undefined;
  /** The default prices the run's backend packages ship, each with its source and date. */
  priceTable: PriceTable;
  splits: LoadedSplits;
  splitSizes: Record<SplitName, number>;
  /**
   * The roles played by a simulator backend (one with a `simulator` part): what a display labels
   * SIMULATED. A real provider's backend pointed at `sim serve` is not one: the run cannot know.
   */
  simulatedRoles: Array<'target' | 'optimizer'>;
}

/** The agent runner that edits the skill when the optimizer is an agent; only a harness backend has one. */
function agentOptimizerFor(backend: Backend, config: PreparedRun['config']): AgentRunner {
  const name = config.model.optimizer_backend;
  if (!backend.createAgentRunner)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `optimizer.mode is agent, but the backend "${name}" runs no agents; set model.optimizer_backend to a harness backend (claude-code, codex, copilot, opencode, pi, cursor), or optimizer.mode to chat`,
    });
  return backend.createAgentRunner({ role: 'optimizer', ...(config.model.optimizer ? { modelId: config.model.optimizer } : {}) });
}

/**
 * Run setup, in one place for every entry point (the CLI's train and eval, `sim serve`, the
 * benchmarks, Sleep): the config's layers resolved against the installed packages, the env and
 * backends created from their own config sections (and their specification versions accepted),
 * each split loaded once — train() and evaluate() take them as they are — and a simulator backend
 * handed every item, its labelled knowledge.
 */
export async function prepareRun(options: PrepareRunOptions): Promise<PreparedRun> {
  // A run this release cannot resume is refused before its config is resolved or anything is built.
  if (options.resumeDirectory) await checkResumableRunDirectory(options.resumeDirectory);
  const layers: readonly ConfigLayerInput[] = options.resumeDirectory
    ? [{ name: `${options.resumeDirectory}/config.json`, config: await readRunConfig(options.resumeDirectory), directory: options.resumeDirectory }]
    : options.layers;
  const resolved = await resolveRunConfig({ layers, overrides: options.overrides, workingDirectory: options.workingDirectory, resolver: options.resolver });
  const { config, environmentPackage } = resolved;
  await options.beforeBackendsCreated?.(config);
  const filesDirectory = typeof options.backendFilesDirectory === 'function' ? options.backendFilesDirectory(config) : options.backendFilesDirectory;
  const environment = acceptEnvironment(
    await environmentPackage.module.createEnvironment(environmentSectionFor(config, environmentPackage.module.manifest)),
    `the env of ${environmentPackage.packageName ?? environmentPackage.requestedName}`,
  );
  const backends = new Map<string, Backend>();
  for (const [name, resolvedBackend] of resolved.backendPackages)
    backends.set(
      name,
      acceptBackend(
        await resolvedBackend.module.createBackend(backendSectionFor(config, resolvedBackend.module.manifest, filesDirectory)),
        `the backend of ${resolvedBackend.packageName ?? name}`,
      ),
    );

  const [train, val, test] = await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)));
  const splits: LoadedSplits = { train: train ?? [], val: val ?? [], test: test ?? [] };
  if (options.needsOptimizer) await checkTrainingSplits(config, environment.id, splits);
  const items: TaskItem[] = [...splits.train, ...splits.val, ...splits.test];
  for (const backend of backends.values()) await backend.simulator?.receiveTaskItems(items, splits);

  const targetBackend = backends.get(config.model.target_backend) as Backend;
  let target: Target;
  // A harness backend (one with agent runners) drives an env that takes agents as an agent, even
  // when it also offers chat models: those are for its optimizer and judge calls.
  if (environment.targetKinds.includes('agent') && targetBackend.createAgentRunner)
    target = { kind: 'agent', runner: targetBackend.createAgentRunner({ role: 'target', ...(config.model.target ? { modelId: config.model.target } : {}) }) };
  else if (environment.targetKinds.includes('chat') && targetBackend.createChatModel)
    target = { kind: 'chat', model: roleChatModel(targetBackend, config.model.target_backend, 'target', config.model.target) };
  else
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `the env "${environment.id}" drives ${environment.targetKinds.join(' or ')} targets, which the backend "${config.model.target_backend}" does not provide`,
    });
  const optimizerBackend = backends.get(config.model.optimizer_backend) as Backend;
  const optimizer = options.needsOptimizer ? roleChatModel(optimizerBackend, config.model.optimizer_backend, 'optimizer', config.model.optimizer) : undefined;
  const optimizerAgent = options.needsOptimizer && config.optimizer.mode === 'agent' ? agentOptimizerFor(optimizerBackend, config) : undefined;
  const simulatedRoles = (['target', 'optimizer'] as const).filter(
    (role) => (role === 'target' || options.needsOptimizer) && backends.get(config.model[`${role}_backend`])?.simulator !== undefined,
  );
  const priceTable = [...resolved.backendPackages.values()].flatMap((resolvedBackend) => resolvedBackend.module.priceTable ?? []);
  return {
    ...resolved,
    environment,
    target,
    optimizer,
    optimizerAgent,
    priceTable,
    splits,
    splitSizes: { train: splits.train.length, val: splits.val.length, test: splits.test.length },
    simulatedRoles,
  };
}
