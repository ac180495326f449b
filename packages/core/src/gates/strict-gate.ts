import { SCORE_TOLERANCE } from './gate-metric.js';
import type { GateDecision, GateRules, GateSide } from './gate-decision.js';
import { gateScore } from './gate-scoring.js';
import { mustPassVeto, noRegressionVeto, type GateVeto } from './gate-vetoes.js';
import { pairItemResults } from './item-pairing.js';

export interface StrictGateInput {
  candidate: GateSide;
  incumbent: GateSide;
  rules: GateRules;
}

function formatScore(score: number): string {
  return score.toFixed(4);
}

/**
 * The `strict` gate (§3.3, made paired): the candidate is accepted only if its gate score is
 * strictly higher than the incumbent's on the same items — those scored on both sides — and no
 * veto (must-pass, no-regression) applies. A tie is a rejection, as in the original: a change that
 * buys nothing measurable is not taken.
 *
 * Unlike the original, both scores are recomputed on the paired items rather than comparing the
 * candidate's fresh mean with the incumbent's remembered one: an item the candidate could not be
 * scored on (infrastructure) is dropped from the incumbent's side too, and vice versa.
 *
 * With `useGate: false` the comparison is computed and recorded exactly the same way, then the
 * candidate is accepted anyway (`force-accept`).
 */
export function decideStrictGate(input: StrictGateInput): GateDecision {
  const { candidate, incumbent, rules } = input;
  const pairing = pairItemResults(candidate.items, incumbent.items, rules);
  const candidateScore = gateScore(pairing.candidateMeans, candidate.skill, rules);
  const incumbentScore = gateScore(pairing.incumbentMeans, incumbent.skill, rules);
  const vetoes = [mustPassVeto(candidate.items, rules.mustPassItemIds), rules.noRegression ? noRegressionVeto(pairing.deltas) : undefined].filter(
    (veto): veto is GateVeto => veto !== undefined,
  );

  const paired = pairing.deltas.length;
  const comparison = `${formatScore(candidateScore.score)} vs ${formatScore(incumbentScore.score)} on ${paired} paired item(s)`;
  let gateSaysAccept = false;
  let verdict: string;
  if (paired === 0) {
    verdict = 'no item was scored for both the candidate and the incumbent, so there is nothing to compare';
  } else if (vetoes.length > 0) {
    verdict = `vetoed by ${vetoes.map((veto) => veto.message).join('; ')} (${comparison})`;
  } else if (candidateScore.score - incumbentScore.score > SCORE_TOLERANCE) {
    gateSaysAccept = true;
    verdict = `candidate is strictly higher: ${comparison}`;
  } else if (Math.abs(candidateScore.score - incumbentScore.score) <= SCORE_TOLERANCE) {
    verdict = `tie, and a tie is rejected: ${comparison}`;
  } else {
    verdict = `candidate is lower: ${comparison}`;
  }
  const excludedNote = pairing.unpaired.length > 0 ? `; ${pairing.unpaired.length} item(s) left out of both sides` : '';

  return {
    strategy: 'strict',
    accepted: gateSaysAccept || !rules.useGate,
    action: !rules.useGate ? 'force-accept' : gateSaysAccept ? 'accept' : 'reject',
    gateSaysAccept,
    reason: `${rules.useGate ? '' : 'gate off, accepted anyway; the gate would have said: '}${verdict}${excludedNote}`,
    candidateScore: candidateScore.score,
    incumbentScore: incumbentScore.score,
    candidate: candidateScore,
    incumbent: incumbentScore,
    itemDeltas: pairing.deltas,
    unpairedItems: pairing.unpaired,
    vetoes,
    itemsEvaluated: candidate.items.length,
    itemsTotal: candidate.items.length,
  };
}
