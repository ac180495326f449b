import { ERROR_CODES, ProviderError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';
import { abortable, createDeadline, type Deadline } from '@skillopt/runtime-kit';

/**
 * One item's time limit over all its work (every model call, tool run and script run). Its
 * `signal` aborts with the run signal's reason when the run stops, and with a retryable
 * `provider-timeout` ProviderError when `timeoutMs` (> 0) has passed: a timeout is an
 * infrastructure failure for the trainer to retry, never an answer scored 0. `what` names the work
 * in the message (`officeqa item q7: the tool loop`).
 */
export function startItemDeadline(
  runSignal: AbortSignal,
  timeoutMs: number,
  model: Pick<ChatModel, 'provider' | 'modelId'>,
  what: string,
  itemId: string,
): Deadline {
  return createDeadline({
    signal: runSignal,
    ...(timeoutMs > 0 ? { timeoutMs } : {}),
    timeoutReason: () =>
      new ProviderError({
        provider: model.provider,
        code: ERROR_CODES.providerTimeout,
        message: `${what} with ${model.provider}/${model.modelId} did not finish within ${timeoutMs / 1000} s (exec_timeout)`,
        retryable: true,
        details: { timeoutMs, modelId: model.modelId, itemId },
      }),
  });
}

/** One target call bounded by the item's deadline; the signal is passed on so the provider can stop too. */
export function generateBefore(model: ChatModel, request: Omit<GenerateRequest, 'signal'>, signal: AbortSignal): Promise<GenerateResult> {
  signal.throwIfAborted();
  return abortable(model.generate({ ...request, signal }), signal);
}
