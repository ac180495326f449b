import type { TaskItem } from '@skillopt/contract';
import type { TaskRecord } from '../tasks/task-record.js';

/** Every night task's type: core reports test scores by type, and a simulated optimizer reads it. */
export const NIGHT_TASK_TYPE = 'sleep';

/**
 * A task as core schedules it. `question` and `references` are what run setup hands a simulator
 * backend as its labelled knowledge; `tags` carry the rules a task was mined for (`rule:<key>`).
 */
export type NightTaskItem = TaskItem & { tags: string[] };

export function nightTaskItem(task: TaskRecord): NightTaskItem {
  return {
    id: task.id,
    taskType: NIGHT_TASK_TYPE,
    question: task.intent,
    ...(task.reference.trim() === '' ? {} : { references: [task.reference] }),
    tags: [...task.tags],
  };
}
