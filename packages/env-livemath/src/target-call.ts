import { ERROR_CODES, ProviderError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';

/**
 * Makes one target call that settles as soon as `signal` aborts (rejecting with the signal's
 * reason) and, when `timeoutMs > 0`, gives up after that long with a retryable `provider-timeout`
 * ProviderError: a slow provider is an infrastructure failure for the trainer to retry, never a
 * wrong answer. The model gets its own signal, aborted in both cases, so it can stop its request.
 * Any error of the model itself propagates unchanged.
 */
export function callTargetWithin(
  model: ChatModel,
  request: Omit<GenerateRequest, 'signal'>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<GenerateResult> {
  signal.throwIfAborted();
  const controller = new AbortController();
  return new Promise<GenerateResult>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = (): void => {
      controller.abort(signal.reason);
      finish(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        const timeout = new ProviderError({
          provider: model.provider,
          code: ERROR_CODES.providerTimeout,
          message: `the target ${model.provider}/${model.modelId} gave no answer within ${timeoutMs / 1000} s (exec_timeout)`,
          retryable: true,
          details: { timeoutMs, modelId: model.modelId },
        });
        controller.abort(timeout);
        finish(() => reject(timeout));
      }, timeoutMs);
    }
    let pending: Promise<GenerateResult>;
    try {
      pending = model.generate({ ...request, signal: controller.signal });
    } catch (error) {
      finish(() => reject(error));
      return;
    }
    pending.then(
      (result) => finish(() => resolve(result)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
