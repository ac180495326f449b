import type { TaskRecord, TaskSplit } from '../tasks/task-record.js';

/** Why a night cannot be validated, in a sentence the report and the command line show. */
export interface NightRefusal {
  code: 'no-judgeable-tasks' | 'no-training-tasks' | 'no-validation-tasks' | 'holdout-overlap';
  reason: string;
}

export interface NightTaskSelection {
  /** The tasks the night replays: every one can be judged. */
  tasks: TaskRecord[];
  /** Tasks left out because nothing can judge them, with why. */
  unjudgeable: Array<{ id: string; reason: string }>;
  /** Set when the night must stage nothing, whatever it would learn. */
  refusal?: NightRefusal;
}

function unjudgeableReason(task: TaskRecord): string | undefined {
  if (task.referenceKind === 'none') return 'no reference, rubric or rule checks (a heuristically mined task)';
  if (task.referenceKind === 'rule' && (task.judge?.checks.length ?? 0) === 0) return 'a rule task without checks';
  if (task.referenceKind === 'exact' && task.reference.trim() === '') return 'an exact task without its answer';
  return undefined;
}

function idsOf(tasks: readonly TaskRecord[], split: TaskSplit): Set<string> {
  return new Set(tasks.filter((task) => task.split === split).map((task) => task.id));
}

/**
 * The tasks a night can learn from, and whether it can be validated at all. The original replayed
 * tasks it could not judge and scored them from the session's outcome, a constant no skill can
 * move, and when validation tasks were missing it validated on the training tasks and reported
 * the result as unverified. Here such tasks are left out and named, and a night without training
 * tasks, without validation tasks, or whose held-out tasks are (or derive from) training tasks is
 * refused before anything is paid for.
 */
export function selectNightTasks(all: readonly TaskRecord[]): NightTaskSelection {
  const unjudgeable: NightTaskSelection['unjudgeable'] = [];
  const tasks: TaskRecord[] = [];
  for (const task of all) {
    const reason = unjudgeableReason(task);
    if (reason === undefined) tasks.push(task);
    else unjudgeable.push({ id: task.id, reason });
  }
  const refusal = refusalOf(all, tasks);
  return { tasks, unjudgeable, ...(refusal === undefined ? {} : { refusal }) };
}

function refusalOf(all: readonly TaskRecord[], tasks: readonly TaskRecord[]): NightRefusal | undefined {
  if (tasks.length === 0)
    return {
      code: 'no-judgeable-tasks',
      reason: `none of the ${all.length} tasks can be judged (none has a reference, a rubric or rule checks), so no skill can be shown better than another`,
    };
  const train = idsOf(tasks, 'train');
  const validation = idsOf(tasks, 'val');
  const heldOut = new Set([...validation, ...idsOf(tasks, 'test')]);
  if (train.size === 0) return { code: 'no-training-tasks', reason: 'no judgeable task is in the train split: there is nothing to learn from' };
  if (validation.size === 0)
    return { code: 'no-validation-tasks', reason: 'no judgeable task is in the val split: an edit could only be checked on the tasks that suggested it' };
  const overlapping = [...heldOut].filter((id) => train.has(id));
  const derived = tasks.filter((task) => task.split === 'train' && heldOut.has(task.derivedFrom)).map((task) => `${task.id} (from ${task.derivedFrom})`);
  if (overlapping.length > 0 || derived.length > 0)
    return {
      code: 'holdout-overlap',
      reason: `held-out tasks are also training tasks: ${[...overlapping, ...derived].slice(0, 5).join(', ')}; a gain on them would prove nothing`,
    };
  return undefined;
}
