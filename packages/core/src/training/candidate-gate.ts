import type { SkillEvaluation } from '../evaluation/evaluate-skill.js';
import { summarizeScores, type ScoreSummary } from '../evaluation/score-summary.js';
import type { GateDecision } from '../gates/gate-decision.js';
import { gateScore } from '../gates/gate-scoring.js';
import { runPairedGate, type PairedGateDecision } from '../gates/paired-gate.js';
import { decideStrictGate } from '../gates/strict-gate.js';
import { skillHash } from '../skill-hash.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import { gateRulesFromConfig, pairedGateSettingsFromConfig } from './gate-configuration.js';
import { evaluateInRun, type TrainingContext } from './training-context.js';

/** A skill's selection scores from its evaluation's summary: its own gate score and the raw means. */
export function selectionScoresOf(context: TrainingContext, skill: string, summary: ScoreSummary): SelectionScores {
  if (summary.nothingScored) return { score: null, selectionHard: null, selectionSoft: null };
  const means = { hard: summary.meanHard, soft: summary.meanSoft };
  return { score: gateScore(means, skill, gateRulesFromConfig(context.config)).score, selectionHard: summary.meanHard, selectionSoft: summary.meanSoft };
}

export interface CandidateGateResult {
  decision: GateDecision | PairedGateDecision;
  /** The candidate's scores: on the whole selection split when accepted, else on the items it was evaluated on. */
  candidateScores: SelectionScores;
}

/**
 * Decides whether `candidateSkill` replaces `incumbentSkill`, on the selection split, with the
 * configured strategy. The incumbent's per-item results come from the rollout cache (it was
 * scored when it was accepted), so only the candidate costs rollouts; the paired strategy spends
 * them chunk by chunk and stops as soon as the answer is clear.
 */
export async function gateCandidate(
  context: TrainingContext,
  incumbentSkill: string,
  candidateSkill: string,
  position: { epoch: number; step: number; globalStep: number },
  stage: 'step' | 'slow-update' = 'step',
): Promise<CandidateGateResult> {
  const rules = gateRulesFromConfig(context.config);
  const selection = context.splits.selection;
  let decision: GateDecision | PairedGateDecision;
  let candidateScores: SelectionScores;
  if (context.config.evaluation.gate_strategy === 'paired') {
    const candidateItems: SkillEvaluation['items'] = [];
    decision = await runPairedGate({
      items: selection,
      candidateSkill,
      incumbentSkill,
      rules,
      settings: pairedGateSettingsFromConfig(context.config),
      signal: context.signal,
      evaluateCandidate: async (items) => {
        const evaluation = await evaluateInRun(context, candidateSkill, items, 'selection');
        candidateItems.push(...evaluation.items);
        return evaluation.items;
      },
      incumbentResults: async (items) => (await evaluateInRun(context, incumbentSkill, items, 'selection')).items,
    });
    // An early accept saw part of the split; the best skill is chosen on whole-split scores, so an
    // accepted candidate is scored on every item (the next gate needs those results anyway).
    candidateScores = decision.accepted
      ? selectionScoresOf(context, candidateSkill, (await evaluateInRun(context, candidateSkill, selection, 'selection')).summary)
      : selectionScoresOf(context, candidateSkill, summarizeScores(candidateItems));
  } else {
    const incumbent = await evaluateInRun(context, incumbentSkill, selection, 'selection');
    const candidate = await evaluateInRun(context, candidateSkill, selection, 'selection');
    decision = decideStrictGate({ candidate: { skill: candidateSkill, items: candidate.items }, incumbent: { skill: incumbentSkill, items: incumbent.items }, rules });
    candidateScores = selectionScoresOf(context, candidateSkill, candidate.summary);
  }
  context.events.emit({
    type: 'candidate-evaluated',
    ...position,
    stage,
    candidateHash: skillHash(candidateSkill),
    candidateScore: decision.candidateScore,
    incumbentScore: decision.incumbentScore,
    itemsEvaluated: decision.itemsEvaluated,
  });
  context.events.emit({
    type: 'gate-decided',
    ...position,
    stage,
    accepted: decision.accepted,
    strategy: decision.strategy,
    reason: decision.reason,
    candidateScore: decision.candidateScore,
    incumbentScore: decision.incumbentScore,
  });
  return { decision, candidateScores };
}
