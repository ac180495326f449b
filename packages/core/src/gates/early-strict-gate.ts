import { strictDifferenceBounds, strictOutlook, type PendingItemRange } from './gate-bounds.js';
import type { GateDecision, GateRules } from './gate-decision.js';
import { type GateItemResult, resultsInItemOrder } from './gate-item-result.js';
import { SCORE_TOLERANCE } from './gate-metric.js';
import { itemMetricScore } from './gate-scoring.js';
import { mustPassVeto, noRegressionVeto, type GateVeto } from './gate-vetoes.js';
import { pairItemResults } from './item-pairing.js';
import { decideStrictGate } from './strict-gate.js';

/** Settings of the strict gate's exact early stop (`evaluation.strict_early_stop`). */
export interface StrictEarlyStopSettings {
  /** Candidate items evaluated between two looks (`evaluation.paired_chunk_size`); each chunk is one wave of rollouts. */
  chunkSize: number;
  /**
   * `likely-decisive` (default): must-pass items first, then the items where the candidate has the
   * most to gain over the incumbent's known result, items the incumbent could not be scored on last;
   * `given`: the order of `items`. The order changes how soon the gate stops, never what it decides.
   */
  order?: 'likely-decisive' | 'given';
}

export interface StrictGateRunInput<Item extends { id: string }> {
  items: readonly Item[];
  candidateSkill: string;
  incumbentSkill: string;
  rules: GateRules;
  /** Absent: the candidate is evaluated on every item in one go, as the strict gate always did. */
  earlyStop?: StrictEarlyStopSettings | undefined;
  /** The incumbent's results on every item (the run's cache has them from when it was accepted). */
  incumbentResults: readonly GateItemResult[];
  /** Evaluates the candidate on these items; one result per item, any order. */
  evaluateCandidate(items: Item[]): Promise<readonly GateItemResult[]>;
  /** Checked before each chunk: an abort rejects with its reason. */
  signal?: AbortSignal | undefined;
}

/** The candidate's score is over `itemsEvaluated` of `itemsTotal` items: the gate rejected before the rest. */
export interface StrictGateRun {
  decision: GateDecision;
  /** The candidate's results on the items it was evaluated on, in evaluation order. */
  candidateResults: GateItemResult[];
  /** Chunks (sequential waves of candidate rollouts) the decision took. */
  chunks: number;
}

/** The range of an item's difference on the gate metric, or undefined when it cannot be paired (the incumbent has no score). */
function pendingRange(incumbent: GateItemResult | undefined, rules: GateRules): PendingItemRange | undefined {
  if (incumbent === undefined || incumbent.status !== 'scored') return undefined;
  const score = itemMetricScore(incumbent, rules);
  // Linear in the candidate's hard and soft, each in [0, 1]: the extremes are at (0, 0) and (1, 1).
  return { low: itemMetricScore({ hard: 0, soft: 0 }, rules) - score, high: itemMetricScore({ hard: 1, soft: 1 }, rules) - score };
}

/** Must-pass items, then the candidate's room to gain (largest first), then items that cannot be paired; stable. */
function likelyDecisiveOrder<Item extends { id: string }>(
  items: readonly Item[],
  incumbentById: ReadonlyMap<string, GateItemResult>,
  rules: GateRules,
): Item[] {
  const mustPass = new Set(rules.mustPassItemIds);
  const rank = (item: Item): number => {
    if (mustPass.has(item.id)) return Number.POSITIVE_INFINITY;
    const range = pendingRange(incumbentById.get(item.id), rules);
    return range === undefined ? Number.NEGATIVE_INFINITY : range.high;
  };
  return items
    .map((item, index) => ({ item, index, rank: rank(item) }))
    .sort((a, b) => (a.rank === b.rank ? a.index - b.index : b.rank - a.rank))
    .map(({ item }) => item);
}

/**
 * The `strict` gate, run: the incumbent's results on every item are known up front (from the
 * cache), the candidate's are gathered chunk by chunk, and with `earlyStop` the gate stops as soon
 * as no way the remaining items could go would let the strict rule accept — a veto already seen, or
 * a best-case paired difference (gate-bounds.ts: every remaining item at its best or excluded, the
 * density bonus known) that is not above the tolerance. The decision is then the strict rule's on
 * the full split, exactly: only rejections stop early, and they are rejections on every completion.
 *
 * Once the strict rule surely accepts (no veto can come, and the worst case is still higher), the
 * remaining items are evaluated in one wave: an accepted candidate's score is always over the whole
 * split, since it becomes the incumbent and may become the best skill. An accepted or gate-off
 * decision is `decideStrictGate`'s on all items; an early rejection's scores are over the items
 * evaluated (`itemsEvaluated < itemsTotal`).
 */
export async function runStrictGate<Item extends { id: string }>(input: StrictGateRunInput<Item>): Promise<StrictGateRun> {
  const { rules, candidateSkill, incumbentSkill, earlyStop, signal } = input;
  const incumbentById = new Map(input.incumbentResults.map((result) => [result.itemId, result]));
  const total = input.items.length;
  const candidateResults: GateItemResult[] = [];
  let chunks = 0;
  const evaluate = async (chunk: Item[]): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    candidateResults.push(...resultsInItemOrder(chunk, await input.evaluateCandidate(chunk), { gate: 'strict', side: 'candidate' }));
    chunks += 1;
  };
  // On every item, in the items' order: the very computation (and summation order) of the full gate.
  const onAll = (): StrictGateRun => {
    const position = new Map(input.items.map((item, index) => [item.id, index]));
    const inOrder = [...candidateResults].sort((a, b) => (position.get(a.itemId) ?? 0) - (position.get(b.itemId) ?? 0));
    return {
      decision: decideStrictGate({
        candidate: { skill: candidateSkill, items: inOrder },
        incumbent: { skill: incumbentSkill, items: input.incumbentResults },
        rules,
      }),
      candidateResults: inOrder,
      chunks,
    };
  };

  if (earlyStop === undefined || !rules.useGate || total === 0) {
    await evaluate([...input.items]);
    return onAll();
  }
  if (!Number.isInteger(earlyStop.chunkSize) || earlyStop.chunkSize < 1) {
    throw new RangeError(`the strict gate's chunk size must be a positive integer, got ${earlyStop.chunkSize}`);
  }
  const ordered = (earlyStop.order ?? 'likely-decisive') === 'given' ? [...input.items] : likelyDecisiveOrder(input.items, incumbentById, rules);
  const bonus = decideStrictGate({ candidate: { skill: candidateSkill, items: [] }, incumbent: { skill: incumbentSkill, items: [] }, rules });
  const bonusDifference = bonus.candidate.densityBonus - bonus.incumbent.densityBonus;

  for (let start = 0; start < ordered.length; start += earlyStop.chunkSize) {
    await evaluate(ordered.slice(start, start + earlyStop.chunkSize));
    const pending = ordered.slice(candidateResults.length);
    if (pending.length === 0) break;

    const evaluatedIds = new Set(candidateResults.map((result) => result.itemId));
    const incumbentSoFar = input.incumbentResults.filter((result) => evaluatedIds.has(result.itemId));
    const pairing = pairItemResults(candidateResults, incumbentSoFar, rules);
    const seenMustPass = rules.mustPassItemIds.filter((itemId) => evaluatedIds.has(itemId));
    const vetoes = [mustPassVeto(candidateResults, seenMustPass), rules.noRegression ? noRegressionVeto(pairing.deltas) : undefined].filter(
      (veto): veto is GateVeto => veto !== undefined,
    );
    const ranges = pending.map((item) => pendingRange(incumbentById.get(item.id), rules)).filter((range): range is PendingItemRange => range !== undefined);
    const bounds = strictDifferenceBounds(pairing.deltas, ranges, bonusDifference);
    const outlook = strictOutlook(bounds, {
      seen: vetoes.length > 0,
      stillPossible: seenMustPass.length < rules.mustPassItemIds.length || (rules.noRegression && ranges.some((range) => range.low < -SCORE_TOLERANCE)),
    });

    if (!outlook.canAccept) {
      const soFar = decideStrictGate({
        candidate: { skill: candidateSkill, items: candidateResults },
        incumbent: { skill: incumbentSkill, items: incumbentSoFar },
        rules: { ...rules, mustPassItemIds: seenMustPass },
      });
      const why =
        vetoes.length > 0
          ? `vetoed by ${vetoes.map((veto) => veto.message).join('; ')}`
          : `no remaining item can make the candidate strictly higher (at best ${bounds.best === Number.NEGATIVE_INFINITY ? 'nothing to compare' : `${bounds.best.toFixed(4)} above the incumbent`})`;
      const evaluated = candidateResults.length;
      return {
        decision: {
          ...soFar,
          accepted: false,
          action: 'reject',
          gateSaysAccept: false,
          reason: `strict gate stopped early after ${evaluated} of ${total} item(s) in ${chunks} chunk(s): ${why}; so far ${soFar.reason}`,
          vetoes,
          itemsEvaluated: evaluated,
          itemsTotal: total,
        },
        candidateResults,
        chunks,
      };
    }
    if (outlook.surelyAccepts) {
      // The decision is known; the rest is needed for the accepted candidate's whole-split score.
      await evaluate(pending);
      break;
    }
  }
  return onAll();
}
