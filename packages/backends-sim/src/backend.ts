import type { Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest, PriceTable, SimulatorSplits, TaskItem } from '@skillopt/contract';
import { parseBackendConfig } from '@skillopt/backends-kit';
import { z } from 'zod';
import { createAnswerKey, EMPTY_ANSWER_KEY, type AnswerKey } from './answer-key.js';
import { createSimulatedModel } from './simulated-model.js';
import { createHardWorld, type HardWorld } from './hard-world/hard-world.js';
import { hardWorldConfigSchema, hardWorldSettingsOf, type HardWorldSettings } from './hard-world/hard-world-settings.js';

const probability = z.number().min(0).max(1);

/** The `backends.sim` section of a run config (snake_case, as every config key). */
export const simBackendConfigSchema = z.strictObject({
  /** Seeds every draw of the simulated model. */
  seed: z.int().default(0),
  /** Probability that a target answer is replaced by a wrong one. */
  noise: probability.default(0.05),
  /** Simulated latency per call, in milliseconds. */
  latency_ms: z.number().min(0).default(0),
  /** The time one call may take, in milliseconds, as a provider's client gives it; a slower call is a retryable provider-timeout. Absent: no limit. */
  timeout_ms: z.number().positive().optional(),
  /** Probability that a reflection proposes a harmful rule. */
  harmful_rule_rate: probability.default(0.15),
  /** Probability that a reflection proposes a useless rule. */
  useless_rule_rate: probability.default(0.15),
  /** Probability that an optimizer reply is malformed (the re-ask always gets a valid one). */
  malformed_reply_rate: probability.default(0),
  /** Which world the model lives in: `demo` (every failure fixable by one rule) or `hard` (the hard world, see the README). */
  world: z.enum(['demo', 'hard']).default('demo'),
  /** The hard world's settings (read only with `world: hard`). */
  hard_world: hardWorldConfigSchema.prefault({}),
});
export type SimBackendConfig = z.output<typeof simBackendConfigSchema>;
export type SimBackendConfigInput = z.input<typeof simBackendConfigSchema>;

export const manifest: PackageManifest<'backend', SimBackendConfig> = {
  kind: 'backend',
  id: 'sim',
  specificationVersion: 'v1',
  configSchema: simBackendConfigSchema,
  description: 'A deterministic, seeded SIMULATED model (no API key, no network): labelled as simulated everywhere it appears.',
};

/** A Backend that also exposes its current answer key (for tests and the CLI's `sim serve`). */
export interface SimBackend extends Backend {
  readonly id: 'sim';
  createChatModel(request: ModelRequest): ChatModel;
  readonly simulator: { receiveTaskItems(items: readonly TaskItem[], splits?: SimulatorSplits): void };
  readonly answerKey: AnswerKey;
  /** The hard world the models live in (`world: hard`), over the items received so far; undefined in the demo world. */
  readonly hardWorld: HardWorld | undefined;
}

/** The hard world's settings of a `backends.sim` section (validated here), so a bench builds the same world as a run. */
export function hardWorldSettings(config: SimBackendConfigInput = {}): HardWorldSettings {
  const settings = parseBackendConfig(simBackendConfigSchema, config, 'sim');
  return hardWorldSettingsOf(settings.seed, settings.noise, settings.hard_world);
}

/**
 * The simulated backend. Run setup hands `simulator.receiveTaskItems` the run's items; models
 * created before that see the answer key as soon as it arrives: they read it at every call.
 */
export function createBackend(config: SimBackendConfigInput = {}): SimBackend {
  const settings = parseBackendConfig(simBackendConfigSchema, config, 'sim');
  let answerKey: AnswerKey = EMPTY_ANSWER_KEY;
  const worldSettings = settings.world === 'hard' ? hardWorldSettingsOf(settings.seed, settings.noise, settings.hard_world) : undefined;
  let hardWorld: HardWorld | undefined = worldSettings === undefined ? undefined : createHardWorld(worldSettings, []);
  return {
    specificationVersion: 'v1',
    id: 'sim',
    get answerKey() {
      return answerKey;
    },
    get hardWorld() {
      return hardWorld;
    },
    simulator: {
      receiveTaskItems(items: readonly TaskItem[], splits?: SimulatorSplits): void {
        answerKey = createAnswerKey(items);
        if (worldSettings !== undefined) hardWorld = createHardWorld(worldSettings, items, splits === undefined ? {} : { splits });
      },
    },
    createChatModel(request: ModelRequest): ChatModel {
      return createSimulatedModel({
        role: request.role,
        ...(request.modelId === undefined ? {} : { modelId: request.modelId }),
        seed: settings.seed,
        noise: settings.noise,
        latencyMs: settings.latency_ms,
        ...(settings.timeout_ms === undefined ? {} : { timeoutMs: settings.timeout_ms }),
        harmfulRuleRate: settings.harmful_rule_rate,
        uselessRuleRate: settings.useless_rule_rate,
        malformedReplyRate: settings.malformed_reply_rate,
        answerKey: () => answerKey,
        hardWorld: () => hardWorld,
      });
    },
  };
}

/** Simulated calls cost nothing; pricing them says so instead of reporting an unknown cost. */
export const priceTable: PriceTable = [
  {
    provider: 'sim',
    modelId: '*',
    inputUsdPerMillionTokens: 0,
    outputUsdPerMillionTokens: 0,
    source: 'the simulated model runs in this process and calls no provider',
    asOf: '2026-11-29',
  },
];

/** The package entry as one value (what core loads by name). */
export const simBackendPackage: BackendPackage<SimBackendConfig> = { manifest, createBackend, priceTable };
