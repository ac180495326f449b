import { forkLatencySlots } from '@skillopt/runtime-kit';
import { type AcceptanceChanceGroup, strictAcceptanceChance } from './acceptance-chance.js';
import { strictDifferenceBounds, strictOutlook } from './gate-bounds.js';
import type { GateDecision, GateRules } from './gate-decision.js';
import { type GateItemResult, resultsInItemOrder } from './gate-item-result.js';
import { mustPassVeto, noRegressionVeto, type GateVeto } from './gate-vetoes.js';
import { itemMetricScore } from './gate-scoring.js';
import { type ItemDelta, pairItemResults } from './item-pairing.js';
import { DEFAULT_ALTERNATIVE_WIN_RATE, canStillReach, checkSignTestSettings, countSigns, signTestState, type SignTestState } from './sequential-sign-test.js';
import { decideStrictGate } from './strict-gate.js';

/** Settings of the `paired` strategy (see docs/paired-gate.md). */
export interface PairedGateSettings {
  /** Items evaluated between two looks at the evidence; smaller stops sooner, larger overlaps more rollouts. */
  chunkSize: number;
  /** Error rate of each early verdict: accepting a candidate that is no better, or rejecting one that is better. */
  alpha: number;
  /** The win chance on discordant items that counts as clearly better; default 0.75. */
  alternativeWinRate?: number;
  /**
   * When every item is used and the test has no verdict: `strict` (default) applies the strict
   * rule to all items, so small selection sets still let training move; `reject` keeps the
   * candidate out unless the test said "better", which bounds the false-accept rate by `alpha`.
   */
  onInconclusive?: 'strict' | 'reject';
  /**
   * Rejects once the predicted chance that the strict rule would accept on every item
   * (acceptance-chance.ts) is below this; 0 turns the futility stop off. With it on, the incumbent's
   * results on every item are asked for up front (the run's cache has them), since the prediction
   * needs to know which remaining items the incumbent passed and which it failed.
   */
  futility?: number;
}

export const DEFAULT_PAIRED_GATE_SETTINGS: Required<PairedGateSettings> = {
  chunkSize: 8,
  alpha: 0.05,
  alternativeWinRate: DEFAULT_ALTERNATIVE_WIN_RATE,
  onInconclusive: 'strict',
  futility: 0.2,
};

/**
 * How the paired gate ended:
 * - `clearly-better` / `clearly-worse`: the sequential sign test reached a boundary;
 * - `vetoed`: a must-pass item failed or an item regressed under `noRegression`;
 * - `determined`: no item left could change the decision any more;
 * - `futile`: the predicted chance that the strict rule would accept on every item fell below `futility`;
 * - `inconclusive`: every item used without a verdict, decided by `onInconclusive`;
 * - `gate-off`: `useGate: false`, everything evaluated and recorded, then accepted.
 */
export type PairedGateOutcome = 'clearly-better' | 'clearly-worse' | 'vetoed' | 'determined' | 'futile' | 'inconclusive' | 'gate-off';

export interface PairedGateDecision extends GateDecision {
  strategy: 'paired';
  sequential: {
    outcome: PairedGateOutcome;
    /** True when the decision came before every item was evaluated. */
    stoppedEarly: boolean;
    chunks: number;
    signTest: SignTestState;
  };
}

export interface PairedGateInput<Item extends { id: string }> {
  /** The selection items, in the order to evaluate them (must-pass items are moved to the front). */
  items: readonly Item[];
  candidateSkill: string;
  incumbentSkill: string;
  rules: GateRules;
  settings: PairedGateSettings;
  /** Evaluates the candidate on these items; one result per item, any order. */
  evaluateCandidate(items: Item[]): Promise<readonly GateItemResult[]>;
  /** The incumbent's results on these items: from the cache when it has them, evaluated otherwise. */
  incumbentResults(items: Item[]): Promise<readonly GateItemResult[]>;
  /** Checked before each chunk: an abort rejects with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Both evaluations of a chunk, run together. When one fails the other is still awaited before the
 * error is passed on, so no rollout of this gate is still running when the caller moves on. Each
 * is a branch of the run's latency-slot chain, bounded by its own rollouts' limit.
 */
async function bothSettled<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const branches = forkLatencySlots(Number.POSITIVE_INFINITY);
  const [firstOutcome, secondOutcome] = await Promise.allSettled([branches.branch(first), branches.branch(second)]);
  branches.join();
  if (firstOutcome.status === 'rejected') throw firstOutcome.reason;
  if (secondOutcome.status === 'rejected') throw secondOutcome.reason;
  return [firstOutcome.value, secondOutcome.value];
}

/** Must-pass items first, so a vetoing failure is seen in the first chunk; otherwise the given order. */
function evaluationOrder<Item extends { id: string }>(items: readonly Item[], mustPassItemIds: readonly string[]): Item[] {
  const mustPass = new Set(mustPassItemIds);
  return [...items.filter((item) => mustPass.has(item.id)), ...items.filter((item) => !mustPass.has(item.id))];
}

/** An item the incumbent passed (metric score ≥ ½) or failed: the candidate mostly loses in the first group and gains in the second. */
function incumbentPassed(incumbentMetricScore: number): boolean {
  return incumbentMetricScore >= 0.5;
}

/** The futility stop's groups: the differences seen and the pairable items left, by the incumbent's result. */
function acceptanceChanceGroups(seen: readonly ItemDelta[], remainingIncumbentScores: readonly number[]): AcceptanceChanceGroup[] {
  return [true, false].map((passed) => ({
    seenDeltas: seen.filter((delta) => incumbentPassed(delta.incumbent) === passed).map((delta) => delta.delta),
    remaining: remainingIncumbentScores.filter((score) => incumbentPassed(score) === passed).length,
  }));
}

function describeSignTest(state: SignTestState, alpha: number): string {
  return (
    `${state.wins} win(s), ${state.losses} loss(es), ${state.ties} tie(s); ` +
    `log-likelihood ratios better ${state.logRatioBetter.toFixed(2)} / worse ${state.logRatioWorse.toFixed(2)} ` +
    `against the boundary ln(1/α) = ${state.threshold.toFixed(2)} (α = ${alpha})`
  );
}

/**
 * The `paired` gate: a sequential paired comparison of candidate and incumbent on the same
 * selection items, evaluated chunk by chunk, which stops as soon as the answer is clear.
 *
 * After each chunk: a failed must-pass item, or (with `noRegression`) a regressed item, rejects at
 * once; the sequential sign test (`sequential-sign-test.ts`) rejects when the candidate is clearly
 * worse and accepts when it is clearly better *and* the strict rule agrees on the items seen so far
 * (so the accepted candidate's paired score is also higher, density bonus included); and when no
 * remaining item could change the outcome, it stops with that outcome (`determined`). With
 * `noRegression` it never accepts before the last item, since every item must be checked. When all
 * items are used without a verdict, `onInconclusive` decides (default: the strict rule on all items).
 *
 * Only chunks the decision needed are evaluated, for the candidate and the incumbent alike.
 */
export async function runPairedGate<Item extends { id: string }>(input: PairedGateInput<Item>): Promise<PairedGateDecision> {
  const { rules, candidateSkill, incumbentSkill, signal } = input;
  const settings = { ...DEFAULT_PAIRED_GATE_SETTINGS, ...input.settings };
  if (!Number.isInteger(settings.chunkSize) || settings.chunkSize < 1) {
    throw new RangeError(`the paired gate's chunk size must be a positive integer, got ${settings.chunkSize}`);
  }
  if (!(settings.futility >= 0 && settings.futility < 1)) throw new RangeError(`the paired gate's futility must be in [0, 1), got ${settings.futility}`);
  const testSettings = { alpha: settings.alpha, alternativeWinRate: settings.alternativeWinRate };
  checkSignTestSettings(testSettings);

  const ordered = evaluationOrder(input.items, rules.mustPassItemIds);
  if (signal?.aborted) throw signal.reason;
  const futilityOn = rules.useGate && settings.futility > 0;
  const knownIncumbent = futilityOn ? new Map((await input.incumbentResults([...ordered])).map((result) => [result.itemId, result])) : undefined;
  const candidateResults: GateItemResult[] = [];
  const incumbentResults: GateItemResult[] = [];
  let counts = { wins: 0, losses: 0, ties: 0 };
  let chunks = 0;

  const finish = (base: GateDecision, outcome: PairedGateOutcome, accepted: boolean, verdict: string, vetoes: GateVeto[] = base.vetoes): PairedGateDecision => {
    const evaluated = candidateResults.length;
    const stoppedEarly = evaluated < ordered.length;
    const signTest = signTestState(counts, testSettings);
    const scope = `paired gate, ${evaluated} of ${ordered.length} item(s) in ${chunks} chunk(s)${stoppedEarly ? ', stopped early' : ''}`;
    const gateOff = !rules.useGate;
    return {
      ...base,
      strategy: 'paired',
      accepted: accepted || gateOff,
      action: gateOff ? 'force-accept' : accepted ? 'accept' : 'reject',
      gateSaysAccept: accepted,
      reason: `${gateOff ? 'gate off, accepted anyway; the gate would have said: ' : ''}${scope}: ${verdict}`,
      vetoes,
      itemsEvaluated: evaluated,
      itemsTotal: ordered.length,
      sequential: { outcome, stoppedEarly, chunks, signTest },
    };
  };

  // With the gate off nothing is decided early, so everything is evaluated in one go.
  const chunkSize = rules.useGate ? settings.chunkSize : Math.max(1, ordered.length);
  for (let start = 0; start < ordered.length; start += chunkSize) {
    if (signal?.aborted) throw signal.reason;
    const chunk = ordered.slice(start, start + chunkSize);
    const [candidateChunk, incumbentChunk] =
      knownIncumbent === undefined
        ? await bothSettled(
            () => input.evaluateCandidate(chunk),
            () => input.incumbentResults(chunk),
          )
        : [await input.evaluateCandidate(chunk), chunk.map((item) => knownIncumbent.get(item.id)).filter((result) => result !== undefined)];
    const candidateInOrder = resultsInItemOrder(chunk, candidateChunk, { gate: 'paired', side: 'candidate' });
    const incumbentInOrder = resultsInItemOrder(chunk, incumbentChunk, { gate: 'paired', side: 'incumbent' });
    candidateResults.push(...candidateInOrder);
    incumbentResults.push(...incumbentInOrder);
    chunks += 1;
    if (!rules.useGate) continue; // everything is evaluated and recorded; the decision is made below

    const chunkDeltas = pairItemResults(candidateInOrder, incumbentInOrder, rules).deltas.map((delta) => delta.delta);
    counts = countSigns(counts, chunkDeltas);
    const state = signTestState(counts, testSettings);
    const remaining = ordered.length - candidateResults.length;
    const soFar = decideStrictGate({
      candidate: { skill: candidateSkill, items: candidateResults },
      incumbent: { skill: incumbentSkill, items: incumbentResults },
      rules,
    });

    // Vetoes on what has been seen: they cannot be undone by later items.
    const evaluatedIds = new Set(candidateResults.map((result) => result.itemId));
    const earlyVetoes = [
      mustPassVeto(
        candidateResults,
        rules.mustPassItemIds.filter((itemId) => evaluatedIds.has(itemId)),
      ),
      rules.noRegression ? noRegressionVeto(soFar.itemDeltas) : undefined,
    ].filter((veto): veto is GateVeto => veto !== undefined);
    if (earlyVetoes.length > 0) {
      return finish(soFar, 'vetoed', false, `vetoed by ${earlyVetoes.map((veto) => veto.message).join('; ')}`, earlyVetoes);
    }

    if (state.verdict === 'worse') {
      return finish(soFar, 'clearly-worse', false, `candidate clearly worse: ${describeSignTest(state, settings.alpha)}`, earlyVetoes);
    }
    const mayAcceptNow = remaining === 0 || !rules.noRegression;
    if (state.verdict === 'better' && soFar.gateSaysAccept && mayAcceptNow) {
      return finish(
        soFar,
        'clearly-better',
        true,
        `candidate clearly better: ${describeSignTest(state, settings.alpha)}; ` +
          `score ${soFar.candidateScore.toFixed(4)} vs ${soFar.incumbentScore.toFixed(4)} on ${soFar.itemDeltas.length} paired item(s)`,
        earlyVetoes,
      );
    }
    if (remaining === 0) break;

    // Curtailment: stop when every way the remaining items could go leads to the same decision.
    // The incumbent's results on them are not known yet, so each may end anywhere in [−1, 1] (or be
    // excluded); gate-bounds.ts bounds the strict fallback's final paired difference.
    const strictFallback = settings.onInconclusive === 'strict';
    const allMustPassSeen = rules.mustPassItemIds.every((itemId) => evaluatedIds.has(itemId));
    const bounds = strictDifferenceBounds(
      soFar.itemDeltas,
      Array.from({ length: remaining }, () => ({ low: -1, high: 1 })),
      soFar.candidate.densityBonus - soFar.incumbent.densityBonus,
    );
    const fallback = strictOutlook(bounds, { seen: false, stillPossible: rules.noRegression || !allMustPassSeen });
    const fallbackCanAccept = strictFallback && fallback.canAccept;
    const testCanAccept = canStillReach(state, 'better', remaining, settings.alternativeWinRate);
    if (!fallbackCanAccept && !testCanAccept) {
      return finish(soFar, 'determined', false, `no remaining item can make the candidate win: ${describeSignTest(state, settings.alpha)}`, earlyVetoes);
    }
    const fallbackSurelyAccepts = strictFallback && fallback.surelyAccepts;
    const testCanReject = canStillReach(state, 'worse', remaining, settings.alternativeWinRate);
    if (fallbackSurelyAccepts && !testCanReject) {
      return finish(
        soFar,
        'determined',
        true,
        `the candidate's lead (${soFar.candidateScore.toFixed(4)} vs ${soFar.incumbentScore.toFixed(4)}) cannot be lost on the remaining item(s)`,
        earlyVetoes,
      );
    }

    if (knownIncumbent !== undefined) {
      const remainingIncumbentScores = ordered
        .slice(candidateResults.length)
        .map((item) => knownIncumbent.get(item.id))
        .flatMap((result) => (result?.status === 'scored' ? [itemMetricScore(result, rules)] : []));
      const chance = strictAcceptanceChance(
        acceptanceChanceGroups(soFar.itemDeltas, remainingIncumbentScores),
        soFar.candidate.densityBonus - soFar.incumbent.densityBonus,
      );
      if (chance < settings.futility) {
        return finish(
          soFar,
          'futile',
          false,
          `the predicted chance that the candidate wins on all items is ${(100 * chance).toFixed(1)} %, below the futility bound of ${(100 * settings.futility).toFixed(1)} % (${describeSignTest(state, settings.alpha)})`,
          earlyVetoes,
        );
      }
    }
  }

  // Every item is used (or the gate is off): the strict rule on all items is the fallback.
  const onAll = decideStrictGate({
    candidate: { skill: candidateSkill, items: candidateResults },
    incumbent: { skill: incumbentSkill, items: incumbentResults },
    rules: { ...rules, useGate: true },
  });
  const state = signTestState(counts, testSettings);
  if (!rules.useGate) {
    return finish(onAll, 'gate-off', onAll.gateSaysAccept, onAll.reason);
  }
  if (settings.onInconclusive === 'strict') {
    return finish(
      onAll,
      'inconclusive',
      onAll.gateSaysAccept,
      `no clear verdict (${describeSignTest(state, settings.alpha)}), so the strict rule on all items decides: ${onAll.reason}`,
    );
  }
  return finish(onAll, 'inconclusive', false, `no clear verdict (${describeSignTest(state, settings.alpha)}), and an inconclusive comparison is rejected`);
}
