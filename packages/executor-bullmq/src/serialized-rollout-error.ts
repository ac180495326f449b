import { ERROR_CODES, type ErrorCategory, type ErrorCode, ProviderError, redactSecretText, SkillOptError } from '@skillopt/contract';

/** An error a rollout threw on a worker, as plain data: enough to throw the same kind of error on the trainer. */
export interface SerializedRolloutError {
  kind: 'provider' | 'skillopt' | 'other';
  message: string;
  code?: string;
  category?: ErrorCategory;
  retryable?: boolean;
  details?: Record<string, unknown>;
  provider?: string;
  status?: number;
  retryAfterMs?: number;
  attempts?: number;
}

/** `error` as data, its message scrubbed of anything shaped like a credential. */
export function serializeRolloutError(error: unknown): SerializedRolloutError {
  const message = redactSecretText(error instanceof Error ? error.message : String(error));
  if (!SkillOptError.isInstance(error)) return { kind: 'other', message };
  const common = {
    message,
    code: error.code,
    category: error.category,
    retryable: error.retryable,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
  if (!ProviderError.isInstance(error)) return { kind: 'skillopt', ...common };
  return {
    kind: 'provider',
    ...common,
    provider: error.provider,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.attempts === undefined ? {} : { attempts: error.attempts }),
  };
}

/** The error to throw on the trainer: a `ProviderError`, a `SkillOptError` or a plain `Error`, as the worker's was. */
export function rebuildRolloutError(serialized: SerializedRolloutError): Error {
  if (serialized.kind === 'other') return new Error(serialized.message);
  const options = {
    code: (serialized.code ?? ERROR_CODES.internal) as ErrorCode,
    message: serialized.message,
    retryable: serialized.retryable ?? false,
    ...(serialized.details === undefined ? {} : { details: serialized.details }),
  };
  if (serialized.kind === 'skillopt') return new SkillOptError({ ...options, category: serialized.category ?? 'internal' });
  return new ProviderError({
    ...options,
    provider: serialized.provider ?? 'unknown',
    ...(serialized.status === undefined ? {} : { status: serialized.status }),
    ...(serialized.retryAfterMs === undefined ? {} : { retryAfterMs: serialized.retryAfterMs }),
    ...(serialized.attempts === undefined ? {} : { attempts: serialized.attempts }),
  });
}
