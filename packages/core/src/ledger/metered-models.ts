import type {
  AgentRunRequest,
  AgentRunResult,
  AgentRunner,
  CallWarning,
  ChatModel,
  GenerateRequest,
  DispatchAnnouncement,
  GenerateResult,
  ModelCapabilities,
  ModelRole,
  Usage,
} from '@skillopt/contract';
import { messageText, SkillOptError } from '@skillopt/contract';
import { estimateTokens } from '@skillopt/backends-kit';
import { latencySlotRecorder } from '@skillopt/runtime-kit';
import type { RunEventEmitter } from '../events/run-event-input.js';
import type { LedgerEntry } from './ledger-entry.js';
import type { Ledger, StartedCall } from './ledger.js';

export interface MeterOptions {
  role: ModelRole;
  ledger: Ledger;
  /** Receives a `usage-recorded` event per successful call (e.g. an EventBus's emit). */
  onEvent?: RunEventEmitter;
  /** A monotonic clock in milliseconds for latency; injectable so tests need no wall clock. */
  now?: () => number;
  /**
   * Refuse a call when this role's (or the total) budget is already spent, with the budget-spent
   * error. Off by default: budgets are checked at step boundaries; turn it on to cap a step too.
   */
  enforceBudget?: boolean;
}

/**
 * A ChatModel that records every call in the ledger: its start before the request leaves the
 * process (so a kill at any instant leaves a line for it), then usage, cost, latency, what the
 * model could not honour (its warnings), or the failure (with the usage it reported, or none; the
 * error is rethrown unchanged). A model that announces its dispatch (`capabilities.announcesDispatch`)
 * gets the start written when it announces, after its own queues: a call still queued when the run
 * is killed was never sent and is not counted; one that fails before it is sent leaves no line.
 */
export function meterChatModel(model: ChatModel, options: MeterOptions): ChatModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    ...(model.capabilities === undefined ? {} : { capabilities: model.capabilities }),
    ...(model.defaultConcurrency === undefined ? {} : { defaultConcurrency: model.defaultConcurrency }),
    generate: (request: GenerateRequest): Promise<GenerateResult> =>
      metered(
        model,
        request.purpose,
        estimateTokens(request.messages.map(messageText).join('\n') + (request.tools ? JSON.stringify(request.tools) : '')),
        options,
        (onDispatch) => model.generate(onDispatch === undefined ? request : { ...request, onDispatch }),
      ),
  };
}

/** An AgentRunner that records every run in the ledger under the run's purpose; see meterChatModel. */
export function meterAgentRunner(runner: AgentRunner, options: MeterOptions): AgentRunner {
  return {
    specificationVersion: runner.specificationVersion,
    provider: runner.provider,
    modelId: runner.modelId,
    ...(runner.capabilities === undefined ? {} : { capabilities: runner.capabilities }),
    ...(runner.defaultConcurrency === undefined ? {} : { defaultConcurrency: runner.defaultConcurrency }),
    run: (request: AgentRunRequest): Promise<AgentRunResult> =>
      metered(runner, request.purpose, estimateTokens(`${request.skill}\n${request.prompt}`), options, (onDispatch) =>
        runner.run(onDispatch === undefined ? request : { ...request, onDispatch }),
      ),
  };
}

async function metered<Result extends { usage: Usage; warnings?: CallWarning[] | undefined }>(
  model: { provider: string; modelId: string; capabilities?: ModelCapabilities },
  purpose: string,
  estimatedInputTokens: number,
  options: MeterOptions,
  call: (onDispatch: DispatchAnnouncement | undefined) => Promise<Result>,
): Promise<Result> {
  const now = options.now ?? (() => performance.now());
  if (options.enforceBudget === true) options.ledger.assertWithinBudget([options.role, 'total']);
  const countLatencySlot = latencySlotRecorder();
  let started: StartedCall | undefined;
  let startedAt = 0;
  // The start is on disk before the provider can receive anything; announced once, however many attempts.
  const begin = async (): Promise<StartedCall> => {
    if (started === undefined) {
      started = options.ledger.begin({
        role: options.role,
        purpose,
        provider: model.provider,
        modelId: model.modelId,
        estimatedUsage: { inputTokens: estimatedInputTokens, outputTokens: 0, estimated: true },
      });
      countLatencySlot();
      await started.written;
      startedAt = now();
    }
    // A later attempt of the same call waits for the same line.
    await started.written;
    return started;
  };
  const announced = model.capabilities?.announcesDispatch === true;
  if (!announced) await begin();
  let result: Result;
  try {
    result = await call(
      announced
        ? async () => {
            await begin();
          }
        : undefined,
    );
  } catch (error) {
    started?.failed({ latencyMs: now() - startedAt, errorCode: SkillOptError.isInstance(error) ? error.code : 'unknown' });
    throw error;
  }
  // A model that answered without announcing its request (against its capability) was still called.
  const entry = (await begin()).succeeded({
    usage: result.usage,
    latencyMs: now() - startedAt,
    ...(result.warnings === undefined ? {} : { warnings: result.warnings }),
  });
  options.onEvent?.(usageRecordedEvent(entry));
  return result;
}

/** The `usage-recorded` event of a ledger entry (without runId and timestamp: the bus adds them). */
export function usageRecordedEvent(entry: LedgerEntry) {
  return {
    type: 'usage-recorded' as const,
    role: entry.role,
    purpose: entry.purpose,
    provider: entry.provider,
    modelId: entry.modelId,
    usage: entry.usage,
    costUsd: entry.costUsd,
    cacheHit: entry.cacheHit,
    latencyMs: entry.latencyMs,
    ...(entry.warnings === undefined ? {} : { warnings: entry.warnings }),
  };
}
