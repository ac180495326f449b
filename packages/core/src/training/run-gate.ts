import type { ScoreSummary } from '../evaluation/score-summary.js';
import { createCandidateGate, type CandidateGate } from '../gates/candidate-gate.js';
import { selectionScores } from '../gates/selection-scores.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import { gateRulesFromConfig, gateSettingsFromConfig } from './gate-configuration.js';
import { evaluateInRun, type TrainingContext } from './training-context.js';

/**
 * The gate of this run: the run's config decides the rules and the strategy, the run's evaluator
 * rolls out on the selection split (through the cache, so an incumbent scored when it was accepted
 * costs nothing), and the decisions go to the run's events.
 */
export function runGate(context: TrainingContext): CandidateGate {
  return createCandidateGate({
    evaluate: async (skill, items) => (await evaluateInRun(context, skill, items, 'selection')).items,
    selectionItems: context.splits.selection,
    rules: gateRulesFromConfig(context.config),
    settings: gateSettingsFromConfig(context.config),
    signal: context.signal,
    emit: context.events.emit,
  });
}

/** A skill's selection scores under the run's gate rules. */
export function selectionScoresOf(context: TrainingContext, skill: string, summary: ScoreSummary): SelectionScores {
  return selectionScores(skill, summary, gateRulesFromConfig(context.config));
}
