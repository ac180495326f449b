import { ERROR_CODES, ProviderError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';

/**
 * For an env's rollout: one target call that settles promptly when `signal` aborts (with the signal's reason) and, when
 * `timeoutMs > 0`, is abandoned after that long with a retryable `provider-timeout` ProviderError:
 * a timeout is an infrastructure failure for the trainer to retry, never an answer scored 0.
 * Any other error of the model propagates unchanged.
 */
export async function generateWithin(
  model: ChatModel,
  request: Omit<GenerateRequest, 'signal'>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<GenerateResult> {
  signal.throwIfAborted();
  const controller = new AbortController();
  let rejectSettle: (reason: unknown) => void = () => undefined;
  const settled = new Promise<never>((_resolve, reject) => {
    rejectSettle = reject;
  });
  // Without a handler this promise would be reported as unhandled when the call wins the race.
  settled.catch(() => undefined);
  const stop = (reason: unknown): void => {
    controller.abort(reason);
    rejectSettle(reason);
  };
  const onAbort = (): void => stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(
          () =>
            stop(
              new ProviderError({
                provider: model.provider,
                code: ERROR_CODES.providerTimeout,
                message: `the target ${model.provider}/${model.modelId} did not answer within ${timeoutMs / 1000} s (exec_timeout)`,
                retryable: true,
                details: { timeoutMs, modelId: model.modelId },
              }),
            ),
          timeoutMs,
        )
      : undefined;
  try {
    return await Promise.race([model.generate({ ...request, signal: controller.signal }), settled]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
