import path from 'node:path';
import type { TaskRecord } from '../tasks/task-record.js';

/** The tasks one skill document learns from in a night. */
export interface SkillTaskGroup {
  /** The skill's name: the folder of its SKILL.md, or the document's own name. */
  skill: string;
  tasks: TaskRecord[];
}

/** A document's skill name: `<name>/SKILL.md` is `name`, any other file its name without `.md`. */
export function skillNameOf(documentPath: string): string {
  const base = path.basename(documentPath);
  return base.toLowerCase() === 'skill.md' ? path.basename(path.dirname(documentPath)) : base.replace(/\.md$/i, '');
}

/**
 * The night's tasks by the skill their sessions used: a task whose session used exactly one skill
 * (its `skillHint`, kept only when every session behind it agrees) goes to that skill; every other
 * task to the night's own document. The night's document comes first, then the skills in the
 * order their first task came; each task is in one group only.
 */
export function groupTasksBySkill(tasks: readonly TaskRecord[], mainSkill: string): SkillTaskGroup[] {
  const groups = new Map<string, TaskRecord[]>([[mainSkill, []]]);
  for (const task of tasks) {
    const skill = task.skillHint.trim() === '' ? mainSkill : task.skillHint.trim();
    const group = groups.get(skill) ?? [];
    group.push(task);
    groups.set(skill, group);
  }
  return [...groups].filter(([, group]) => group.length > 0).map(([skill, group]) => ({ skill, tasks: group }));
}
