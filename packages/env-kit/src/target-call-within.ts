import { ERROR_CODES, ProviderError, type ChatModel, type GenerateRequest, type GenerateResult } from '@skillopt/contract';
import { withDeadline } from '@skillopt/runtime-kit';

/**
 * For an env's rollout: one target call that settles promptly when `signal` aborts (with the signal's reason) and, when
 * `timeoutMs > 0`, is abandoned after that long with a retryable `provider-timeout` ProviderError:
 * a timeout is an infrastructure failure for the trainer to retry, never an answer scored 0.
 * Any other error of the model propagates unchanged.
 */
export function generateWithin(model: ChatModel, request: Omit<GenerateRequest, 'signal'>, signal: AbortSignal, timeoutMs: number): Promise<GenerateResult> {
  return withDeadline((callSignal) => model.generate({ ...request, signal: callSignal }), {
    signal,
    ...(timeoutMs > 0 ? { timeoutMs } : {}),
    timeoutReason: () =>
      new ProviderError({
        provider: model.provider,
        code: ERROR_CODES.providerTimeout,
        message: `the target ${model.provider}/${model.modelId} did not answer within ${timeoutMs / 1000} s (exec_timeout)`,
        retryable: true,
        details: { timeoutMs, modelId: model.modelId },
      }),
  });
}
