import { ERROR_CODES, ProviderError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';

/**
 * One item's time limit. Its `signal` aborts with the run signal's reason when the run stops, and
 * with a retryable `provider-timeout` ProviderError when `timeoutMs` (> 0) has passed: a timeout
 * is an infrastructure failure for the trainer to retry, never an answer scored 0.
 */
export interface ItemDeadline {
  readonly signal: AbortSignal;
  dispose(): void;
}

export function startItemDeadline(runSignal: AbortSignal, timeoutMs: number, model: Pick<ChatModel, 'provider' | 'modelId'>, itemId: string): ItemDeadline {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(runSignal.reason);
  if (runSignal.aborted) onAbort();
  else runSignal.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(
          () =>
            controller.abort(
              new ProviderError({
                provider: model.provider,
                code: ERROR_CODES.providerTimeout,
                message: `officeqa item ${itemId}: the tool loop with ${model.provider}/${model.modelId} did not finish within ${timeoutMs / 1000} s (exec_timeout)`,
                retryable: true,
                details: { timeoutMs, modelId: model.modelId, itemId },
              }),
            ),
          timeoutMs,
        )
      : undefined;
  return {
    signal: controller.signal,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      runSignal.removeEventListener('abort', onAbort);
    },
  };
}

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (whichever comes first). */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  // The work may reject after losing the race; that rejection is not ours to report.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** One target call bounded by the item's deadline; the signal is passed on so the provider can stop too. */
export function generateBefore(model: ChatModel, request: Omit<GenerateRequest, 'signal'>, signal: AbortSignal): Promise<GenerateResult> {
  signal.throwIfAborted();
  return untilAborted(model.generate({ ...request, signal }), signal);
}
