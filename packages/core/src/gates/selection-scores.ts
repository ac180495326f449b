import type { ScoreSummary } from '../evaluation/score-summary.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import { gateScore, type GateScoring } from './gate-scoring.js';

/** A skill's selection scores from its evaluation's summary: its own gate score and the raw means. */
export function selectionScores(skill: string, summary: ScoreSummary, scoring: GateScoring): SelectionScores {
  if (summary.nothingScored) return { score: null, selectionHard: null, selectionSoft: null };
  const means = { hard: summary.meanHard, soft: summary.meanSoft };
  return { score: gateScore(means, skill, scoring).score, selectionHard: summary.meanHard, selectionSoft: summary.meanSoft };
}
