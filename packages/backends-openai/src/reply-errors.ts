import { ERROR_CODES, ProviderError, type ErrorCode } from '@skillopt/contract';

/**
 * Failures of the model's answer rather than of the transport: an empty reply, a refusal, a
 * reply that is not what was asked for. They are retryable for core (a new sample may succeed;
 * if not, the item is excluded and reported), but this package does not retry them itself: its
 * retries are for the transport, so a call never silently pays for several answers.
 */
const answerFailures = new WeakSet<object>();

export function answerFailure(options: {
  code: ErrorCode;
  provider: string;
  message: string;
  status?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}): ProviderError {
  const error = new ProviderError({ ...options, retryable: true });
  answerFailures.add(error);
  return error;
}

/** Whether `error` is about the model's answer (not worth a transport retry). */
export function isAnswerFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && answerFailures.has(error);
}

export const replyEmpty = (provider: string, message: string, details?: Record<string, unknown>): ProviderError =>
  answerFailure({ code: ERROR_CODES.replyEmpty, provider, message, ...(details ? { details } : {}) });

export const replyRefused = (provider: string, message: string, details?: Record<string, unknown>): ProviderError =>
  answerFailure({ code: ERROR_CODES.replyRefused, provider, message, ...(details ? { details } : {}) });

export const replyMalformed = (provider: string, message: string, details?: Record<string, unknown>, cause?: unknown): ProviderError =>
  answerFailure({ code: ERROR_CODES.replyMalformed, provider, message, ...(details ? { details } : {}), ...(cause === undefined ? {} : { cause }) });
