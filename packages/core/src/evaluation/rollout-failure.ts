import { ERROR_CODES, ProviderError, SkillOptError, type RolloutResult } from '@skillopt/contract';

/** An infrastructure failure of one rollout attempt: worth another attempt, never a score. */
export interface InfrastructureFailure {
  code: string;
  message: string;
  /** False when the env said retrying cannot help; the item is then excluded without more attempts. */
  retryable: boolean;
}

interface RolloutWhere {
  environmentId: string;
  itemId: string;
}

/**
 * Sorts an error thrown by `environment.rollout` into "infrastructure, try again" or "stop the run".
 *
 * - A retryable `SkillOptError` (a harness timeout, the env's own time limit) is an
 *   infrastructure failure of this item: it is returned, to be retried and, if it persists,
 *   excluded. A `ProviderError` the backend already retried (`attempts` set) is returned as not
 *   worth another attempt: the item is excluded at once.
 * - A non-retryable `SkillOptError` (bad credentials, unknown model, a spent budget) would fail
 *   every item the same way, so it is rethrown as it is and ends the run resumably.
 * - Anything else is a bug (in the env or in core): it is rethrown as an internal `SkillOptError`
 *   that names the env and the item and keeps the original as `cause`. Turning a bug into an
 *   excluded item would hide it.
 */
export function classifyRolloutError(error: unknown, where: RolloutWhere): InfrastructureFailure {
  if (SkillOptError.isInstance(error)) {
    // The backend owns a provider failure it already retried: running the rollout again would
    // multiply its attempts (docs/failure-ownership.md), so the item is excluded at once.
    if (ProviderError.isInstance(error) && error.retryable && error.attempts !== undefined)
      return { code: error.code, message: `${error.message} (after ${error.attempts} attempts by the ${error.provider} backend)`, retryable: false };
    if (error.retryable) return { code: error.code, message: error.message, retryable: true };
    throw error;
  }
  const detail = error instanceof Error ? error.message : String(error);
  throw new SkillOptError({
    code: ERROR_CODES.internal,
    category: 'internal',
    message: `the environment "${where.environmentId}" failed while rolling out item "${where.itemId}": ${detail}`,
    cause: error,
    details: { environmentId: where.environmentId, itemId: where.itemId },
  });
}

function isUnitScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

/**
 * Checks the parts of a rollout result that core relies on — its status, its item id and, when
 * scored, two scores in [0, 1] — and throws an internal error naming the env otherwise. (The full
 * shape is the conformance suite's job; a malformed score must not silently enter a mean.)
 */
export function checkRolloutResult(result: RolloutResult, where: RolloutWhere): RolloutResult {
  const problem = describeRolloutResultProblem(result, where.itemId);
  if (problem === undefined) return result;
  throw new SkillOptError({
    code: ERROR_CODES.internal,
    category: 'internal',
    message: `the environment "${where.environmentId}" returned an invalid result for item "${where.itemId}": ${problem}`,
    details: { environmentId: where.environmentId, itemId: where.itemId },
  });
}

function describeRolloutResultProblem(result: unknown, itemId: string): string | undefined {
  if (typeof result !== 'object' || result === null) return 'it is not an object';
  const fields = result as Record<string, unknown>;
  if (fields.id !== itemId) return `its id is ${JSON.stringify(fields.id)}`;
  if (fields.status === 'scored') {
    if (!isUnitScore(fields.hard)) return `its hard score ${String(fields.hard)} is not a number in [0, 1]`;
    if (!isUnitScore(fields.soft)) return `its soft score ${String(fields.soft)} is not a number in [0, 1]`;
    return undefined;
  }
  if (fields.status === 'errored') {
    const error = fields.error as Record<string, unknown> | undefined;
    if (typeof error !== 'object' || error === null || typeof error.code !== 'string') return 'its error has no code';
    return undefined;
  }
  return `its status is ${JSON.stringify(fields.status)}`;
}
