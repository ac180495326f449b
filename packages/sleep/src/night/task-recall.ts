import type { TaskRecord } from '../tasks/task-record.js';

/** The marker of a recalled copy's id and tags. */
const RECALL_PREFIX = 'recall:';

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length > 2));
}

function jaccard(first: ReadonlySet<string>, second: ReadonlySet<string>): number {
  if (first.size === 0 || second.size === 0) return 0;
  let shared = 0;
  for (const word of first) if (second.has(word)) shared += 1;
  return shared / (first.size + second.size - shared);
}

/**
 * Earlier nights' training tasks most like tonight's, as extra training tasks: each archived
 * training task scored by its best word overlap (Jaccard) with one of tonight's training tasks,
 * the `count` best taken (ties by id), none with no overlap. Never a task tonight holds or derives
 * from, never one archived as validation or test, so recall cannot leak a held-out task into
 * training. The copies say where they came from (`recall:<id>`, `derivedFrom`).
 */
export function recallSimilarTasks(tonight: readonly TaskRecord[], archive: readonly TaskRecord[], count: number): TaskRecord[] {
  if (count <= 0) return [];
  const excluded = new Set(tonight.flatMap((task) => [task.id, task.derivedFrom].filter((id) => id !== '')));
  const training = tonight.filter((task) => task.split === 'train').map((task) => words(task.intent));
  if (training.length === 0) return [];
  return archive
    .filter((task) => task.split === 'train' && !excluded.has(task.id) && !task.id.startsWith(RECALL_PREFIX))
    .map((task) => {
      const taskWords = words(task.intent);
      return { task, similarity: Math.max(...training.map((words) => jaccard(words, taskWords))) };
    })
    .filter((scored) => scored.similarity > 0)
    .sort((first, second) => second.similarity - first.similarity || first.task.id.localeCompare(second.task.id))
    .slice(0, count)
    .map(({ task }) => ({
      ...task,
      id: `${RECALL_PREFIX}${task.id}`,
      tags: [...task.tags, 'recall'],
      split: 'train',
      derivedFrom: task.id,
    }));
}
