import {
  AnswerPendingError,
  ERROR_CODES,
  ProviderError,
  SkillOptError,
  type Environment,
  type RolloutPhase,
  type ScoredRollout,
  type Target,
  type TaskItem,
} from '@skillopt/contract';
import { abortable, sleep } from '@skillopt/backends-kit';
import { mapConcurrent } from '@skillopt/env-kit';
import { type RolloutCache, type RolloutCacheKey, rolloutCacheKeyText } from '../rollout-cache/rollout-cache.js';
import { skillHash as hashSkill } from '../skill-hash.js';
import type { EvaluationCounters, ExcludedItemEvaluation, ItemEvaluation, ItemRolledOutReport, ScoredItemEvaluation } from './item-evaluation.js';
import { createInProcessExecutor, type Executor } from './executor.js';
import { withRequestKeys } from './keyed-target.js';
import { combinedAnswerPending } from './pending-answers.js';
import { checkRolloutResult, classifyRolloutError, type InfrastructureFailure } from './rollout-failure.js';
import { summarizeScores, type ScoreSummary } from './score-summary.js';
import { targetModelId as describeTargetModel } from './target-model-id.js';

export interface EvaluateSkillOptions {
  environment: Environment;
  /** The skill document to roll out with. */
  skill: string;
  /** The items to roll out; ids must be unique (they key the cache and the gate's pairing). */
  items: readonly TaskItem[];
  target: Target;
  /** Which sample of each item this is (default 0); a new index buys a fresh draw of a noisy target. */
  sampleIndex?: number;
  cache: RolloutCache;
  /** Rollouts in flight at once: a positive integer or `Infinity`. */
  concurrency: number;
  /** Further attempts after an infrastructure failure before the item is excluded (0 = one attempt). */
  retries: number;
  /** Wait before each further attempt, in ms (default 0); a provider's own `retryAfterMs` wins when longer. */
  retryDelayMs?: number;
  /** Aborting it rejects the evaluation promptly with the signal's reason. */
  signal: AbortSignal;
  phase: RolloutPhase;
  /** Called once per item as it completes, with what the `item-rolled-out` event needs. */
  onItem?: (report: ItemRolledOutReport) => void;
  /** Parent of the per-attempt work directories (created if missing). */
  workDirectory: string;
  /** Where the rollouts run; default: in this process, at most `concurrency` at once. */
  executor?: Executor;
  /**
   * What names this skill in the request keys of a keyed-requests target (default: its hash). A
   * candidate is named by its place in the run, so a resumed step whose candidate came out worded
   * differently elsewhere still finds the answers already given for it.
   */
  requestLabel?: string;
}

export interface SkillEvaluation {
  skillHash: string;
  targetModelId: string;
  sampleIndex: number;
  phase: RolloutPhase;
  /** One entry per input item, in input order whatever order they completed in. */
  items: ItemEvaluation[];
  /** Means over scored items only (§6.1): excluded items are in neither numerator nor denominator. */
  summary: ScoreSummary;
  counters: EvaluationCounters;
}

function assertUniqueItemIds(items: readonly TaskItem[]): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) {
      throw new SkillOptError({
        code: ERROR_CODES.dataInvalid,
        category: 'user',
        message: `the item id "${item.id}" occurs more than once; ids must be unique, since they key the rollout cache`,
        details: { itemId: item.id },
      });
    }
    seen.add(item.id);
  }
}

function assertNonNegativeInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

/**
 * Rolls `skill` out on every item and returns per-item results in item order with their summary.
 *
 * Per item: a cached scored result for (skill hash, item id, sample index, target model) is used at
 * no cost. Otherwise `environment.rollout` runs in a fresh work directory. An infrastructure
 * failure — an `errored` result or a thrown retryable `SkillOptError`/`ProviderError` — is tried
 * again up to `retries` times (an `errored` result marked non-retryable is not) and, if it
 * persists, the item is *excluded*: reported with its error code and message, never scored, so a
 * provider outage can never look like a task failure (§10 item 24). Scored results go into the cache.
 *
 * The evaluation rejects — and the trainer ends the run resumably — on a non-retryable
 * `SkillOptError` (it would fail every item alike), on an internal error (a bug must not be hidden
 * as an excluded item) and on an abort (with the signal's reason, promptly). Rollouts in flight
 * are then signalled to stop.
 */
export async function evaluateSkill(options: EvaluateSkillOptions): Promise<SkillEvaluation> {
  const { environment, skill, items, target, cache, concurrency, retries, signal, phase, onItem, workDirectory } = options;
  const executor = options.executor ?? createInProcessExecutor({ maxRolloutsInFlight: concurrency });
  const sampleIndex = options.sampleIndex ?? 0;
  const retryDelayMs = options.retryDelayMs ?? 0;
  assertNonNegativeInteger('sampleIndex', sampleIndex);
  assertNonNegativeInteger('retries', retries);
  assertUniqueItemIds(items);
  if (signal.aborted) throw signal.reason;

  const hash = hashSkill(skill);
  const modelId = describeTargetModel(target);
  const counters: EvaluationCounters = { rolloutsRun: 0, cacheHits: 0, retries: 0, excludedItems: 0 };
  const total = items.length;
  let completed = 0;
  const where = (item: TaskItem) => ({ environmentId: environment.id, itemId: item.id });

  const report = (evaluation: ItemEvaluation, callSignal: AbortSignal): void => {
    // Once the evaluation is being torn down nothing more is reported: the caller has moved on.
    if (callSignal.aborted) throw callSignal.reason;
    completed += 1;
    onItem?.({
      phase,
      skillHash: hash,
      itemId: evaluation.itemId,
      sampleIndex,
      ...(evaluation.status === 'scored' ? { hard: evaluation.hard, soft: evaluation.soft } : { errorCode: evaluation.error.code }),
      cached: evaluation.status === 'scored' && evaluation.cached,
      completed,
      total,
    });
  };

  /** One call of `environment.rollout` in its own directory: a result, an infrastructure failure, or requests left for an answer. */
  const attempt = async (
    item: TaskItem,
    key: RolloutCacheKey,
    callSignal: AbortSignal,
  ): Promise<{ result: ScoredRollout } | { failure: InfrastructureFailure; retryAfterMs?: number } | { pending: AnswerPendingError }> => {
    counters.rolloutsRun += 1;
    const keyedTarget = withRequestKeys(target, `rollout/${options.requestLabel ?? hash}/${item.id}/${sampleIndex}`);
    const rollout = executor.runRollout({
      environment,
      item,
      skill,
      target: keyedTarget,
      sampleIndex,
      phase: options.phase,
      workDirectory,
      signal: callSignal,
      rolloutCacheKey: rolloutCacheKeyText(key),
      skillHash: hash,
    });
    try {
      const result = checkRolloutResult(await abortable(rollout, callSignal), where(item));
      if (result.status === 'errored' && result.error.code === ERROR_CODES.answerPending)
        return { pending: new AnswerPendingError({ requestIds: [], directory: String(result.details?.directory ?? ''), message: result.error.message }) };
      if (result.status === 'errored') {
        // Only an explicit `retryable: false` skips the retries: the env knows retrying cannot help.
        const { code, message, retryable } = result.error;
        return { failure: { code, message: String(message ?? ''), retryable: retryable !== false } };
      }
      return { result };
    } catch (error) {
      if (callSignal.aborted) throw callSignal.reason;
      if (AnswerPendingError.isInstance(error)) return { pending: error };
      const failure = classifyRolloutError(error, where(item));
      const retryAfterMs = ProviderError.isInstance(error) ? error.retryAfterMs : undefined;
      return retryAfterMs === undefined ? { failure } : { failure, retryAfterMs };
    }
  };

  // Items whose rollout left requests for an answer: neither retried, nor excluded, nor scored.
  const pending: AnswerPendingError[] = [];
  const evaluateItem = async (item: TaskItem, callSignal: AbortSignal): Promise<ItemEvaluation | undefined> => {
    const key: RolloutCacheKey = { skillHash: hash, itemId: item.id, sampleIndex, targetModelId: modelId };
    const cached = await abortable(cache.get(key), callSignal);
    if (cached !== undefined && cached.status === 'scored') {
      counters.cacheHits += 1;
      const evaluation = scoredItem(cached, sampleIndex, true, 0);
      report(evaluation, callSignal);
      return evaluation;
    }

    let attempts = 0;
    for (;;) {
      if (callSignal.aborted) throw callSignal.reason;
      attempts += 1;
      if (attempts > 1) counters.retries += 1;
      const outcome = await attempt(item, key, callSignal);
      if ('pending' in outcome) {
        pending.push(outcome.pending);
        return undefined;
      }
      if ('result' in outcome) {
        const { result } = outcome;
        await cache.set(key, result);
        const evaluation = scoredItem(result, sampleIndex, false, attempts);
        report(evaluation, callSignal);
        return evaluation;
      }
      const { failure } = outcome;
      if (!failure.retryable || attempts > retries) {
        counters.excludedItems += 1;
        const evaluation: ExcludedItemEvaluation = {
          status: 'excluded',
          itemId: item.id,
          sampleIndex,
          error: { code: failure.code, message: failure.message },
          attempts,
        };
        report(evaluation, callSignal);
        return evaluation;
      }
      await sleep(Math.max(retryDelayMs, outcome.retryAfterMs ?? 0), callSignal);
    }
  };

  const settled = await mapConcurrent(items, concurrency, (item, _index, callSignal) => evaluateItem(item, callSignal), {
    signal,
  });
  // Every other item has run by now, so every request reachable at this point is written.
  if (pending.length > 0) throw combinedAnswerPending(pending);
  const evaluations = settled as ItemEvaluation[];
  return {
    skillHash: hash,
    targetModelId: modelId,
    sampleIndex,
    phase,
    items: evaluations,
    summary: summarizeScores(evaluations),
    counters,
  };
}

function scoredItem(result: ScoredRollout, sampleIndex: number, cached: boolean, attempts: number): ScoredItemEvaluation {
  return { status: 'scored', itemId: result.id, sampleIndex, hard: result.hard, soft: result.soft, cached, attempts, result };
}
