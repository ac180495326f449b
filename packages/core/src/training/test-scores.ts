import type { TaskItem } from '@skillopt/contract';
import type { SkillEvaluation } from '../evaluation/evaluate-skill.js';
import type { ItemEvaluation } from '../evaluation/item-evaluation.js';
import { summarizeScores } from '../evaluation/score-summary.js';
import type { RunSummary, TaskTypeTestScores, TestScores } from './run-summary.js';

interface TestedSkills {
  initial: SkillEvaluation;
  best: SkillEvaluation;
  final: SkillEvaluation;
}

/** The summary's test section: each skill's means, and its hard score per task type of the split. */
export function testScoresOf(items: readonly TaskItem[], tested: TestedSkills): NonNullable<RunSummary['test']> {
  const taskTypes = new Map<string, Set<string>>();
  for (const item of items) {
    const ids = taskTypes.get(item.taskType) ?? new Set<string>();
    ids.add(item.id);
    taskTypes.set(item.taskType, ids);
  }
  const byTaskType: TaskTypeTestScores[] = [...taskTypes].map(([taskType, ids]) => {
    const hardOf = (evaluation: SkillEvaluation) => scoresOf(evaluation.items.filter((item) => ids.has(item.itemId))).hard;
    return { taskType, items: ids.size, initial: hardOf(tested.initial), best: hardOf(tested.best), final: hardOf(tested.final) };
  });
  return { initial: scoresOf(tested.initial.items), best: scoresOf(tested.best.items), final: scoresOf(tested.final.items), byTaskType };
}

/** Means over the scored items only; with none scored there is no score, and null says so. */
function scoresOf(items: readonly ItemEvaluation[]): TestScores {
  const summary = summarizeScores(items);
  return {
    hard: summary.nothingScored ? null : summary.meanHard,
    soft: summary.nothingScored ? null : summary.meanSoft,
    scored: summary.scoredCount,
    excluded: summary.excludedCount,
  };
}
