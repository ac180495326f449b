import {
  ERROR_CODES,
  SkillOptError,
  type Backend,
  type ChatModel,
  type Environment,
  type ModelRole,
  type PriceTable,
  type Target,
  type TaskItem,
} from '@skillopt/contract';
import { acceptBackend, acceptEnvironment, backendSectionFor, environmentSectionFor } from '@skillopt/core';
import type { ResolvedRunConfig } from './resolve-run-config.js';

export interface RunParts {
  environment: Environment;
  /** The default prices the run's backend packages ship, each with its source and date. */
  priceTable: PriceTable;
  target: Target;
  optimizer: ChatModel | undefined;
  splitSizes: { train: number; val: number; test: number };
}

function modelFor(backend: Backend, backendName: string, role: ModelRole, modelId: string | undefined): ChatModel {
  if (!backend.createChatModel)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `the backend "${backendName}" has no chat models, so it cannot be the ${role}; choose another model.${role}_backend`,
    });
  return backend.createChatModel({ role, ...(modelId ? { modelId } : {}) });
}

/**
 * The env, the target and the optimizer of a run, created from the resolved packages with their
 * own config sections. A simulator backend receives the env's items, its labelled knowledge.
 */
export async function createRunParts(resolved: ResolvedRunConfig, options: { needsOptimizer: boolean }): Promise<RunParts> {
  const { config, environmentPackage } = resolved;
  const environment = acceptEnvironment(
    await environmentPackage.module.createEnvironment(environmentSectionFor(config, environmentPackage.module.manifest)),
    `the env of ${environmentPackage.packageName ?? environmentPackage.requestedName}`,
  );
  const backends = new Map<string, Backend>();
  for (const [name, resolvedBackend] of resolved.backendPackages)
    backends.set(
      name,
      acceptBackend(await resolvedBackend.module.createBackend(backendSectionFor(config, resolvedBackend.module.manifest)), `the backend of ${resolvedBackend.packageName ?? name}`),
    );

  const splits = await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)));
  const items: TaskItem[] = splits.flat();
  for (const backend of backends.values()) await backend.simulator?.receiveTaskItems(items);

  const targetBackend = backends.get(config.model.target_backend) as Backend;
  let target: Target;
  if (environment.targetKinds.includes('chat') && targetBackend.createChatModel)
    target = { kind: 'chat', model: modelFor(targetBackend, config.model.target_backend, 'target', config.model.target) };
  else if (environment.targetKinds.includes('agent') && targetBackend.createAgentRunner)
    target = { kind: 'agent', runner: targetBackend.createAgentRunner({ role: 'target', ...(config.model.target ? { modelId: config.model.target } : {}) }) };
  else
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `the env "${environment.id}" drives ${environment.targetKinds.join(' or ')} targets, which the backend "${config.model.target_backend}" does not provide`,
    });
  // `skillopt eval` makes no optimizer call, so it needs no optimizer model.
  const optimizer = options.needsOptimizer
    ? modelFor(backends.get(config.model.optimizer_backend) as Backend, config.model.optimizer_backend, 'optimizer', config.model.optimizer)
    : undefined;
  const [train, val, test] = splits as [TaskItem[], TaskItem[], TaskItem[]];
  const priceTable = [...resolved.backendPackages.values()].flatMap((resolvedBackend) => resolvedBackend.module.priceTable ?? []);
  return { environment, priceTable, target, optimizer, splitSizes: { train: train.length, val: val.length, test: test.length } };
}
