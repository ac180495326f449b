import type { TaskOutcome, TaskRecord } from '../tasks/task-record.js';

/** A merged task keeps the best outcome any of its sessions had. */
const OUTCOME_RANK: Record<TaskOutcome, number> = { success: 3, fail: 2, mixed: 1, unknown: 0 };

/**
 * One task per id, in first-seen order: the first record wins, later ones add their source
 * sessions (each once) and can raise its outcome. The skill hint survives only when every record
 * of the id that has one names the same skill. The input is not changed.
 */
export function deduplicateTasks(tasks: readonly TaskRecord[]): TaskRecord[] {
  const merged = new Map<string, TaskRecord>();
  const hints = new Map<string, Set<string>>();
  for (const task of tasks) {
    const hintSet = hints.get(task.id) ?? new Set<string>();
    if (task.skillHint !== '') hintSet.add(task.skillHint);
    hints.set(task.id, hintSet);
    const existing = merged.get(task.id);
    if (existing === undefined) {
      merged.set(task.id, { ...task, sourceSessions: [...new Set(task.sourceSessions)] });
      continue;
    }
    existing.sourceSessions = [...new Set([...existing.sourceSessions, ...task.sourceSessions])];
    if (OUTCOME_RANK[task.outcome] > OUTCOME_RANK[existing.outcome]) existing.outcome = task.outcome;
  }
  return [...merged.values()].map((task) => {
    const hintSet = hints.get(task.id);
    return { ...task, skillHint: hintSet !== undefined && hintSet.size === 1 ? ([...hintSet][0] as string) : '' };
  });
}
