import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { classifyCursorFailure } from './cursor-failure.js';

const STDERR_MARK = '; stderr ends: ';

/**
 * A run that exited otherwise than 0 without an error result is a crash to the agent-run flow; Cursor
 * prints why on stderr instead (a refused key, an unknown flag, a model the account lacks), and the
 * flow quotes its tail in the message. This reads that tail as a reported failure, so a login that
 * cannot succeed stops the run instead of being retried; anything it does not recognise stays the
 * retryable crash it was.
 */
export function classifiedCrash(error: unknown): unknown {
  if (!ProviderError.isInstance(error) || error.code !== ERROR_CODES.processCrashed) return error;
  const at = error.message.indexOf(STDERR_MARK);
  if (at < 0) return error;
  const failure = classifyCursorFailure(error.message.slice(at + STDERR_MARK.length));
  if (failure.code === undefined) return error;
  return new ProviderError({
    code: failure.code,
    provider: error.provider,
    retryable: failure.retryable ?? true,
    message: error.message,
    details: error.details ?? {},
    cause: error,
  });
}
