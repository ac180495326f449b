import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';

/** One task of Sleep's shipped researcher persona: a paper's arXiv id asked for, with the answer the researcher wants. */
export interface PersonaTask {
  id: string;
  intent: string;
  reference: string;
  tags: string[];
}

const personas = path.resolve(__dirname, '..', '..', '..', '..', 'packages', 'sleep', 'examples', 'personas');
/** The researcher persona's task file, and the skill document it starts from. */
export const RESEARCHER_TASKS_FILE = path.join(personas, 'researcher.tasks.json');
export const PERSONA_SKILL_FILE = path.join(personas, 'SKILL.md');

export const RESEARCHER_TASKS: readonly PersonaTask[] = (JSON.parse(readFileSync(RESEARCHER_TASKS_FILE, 'utf8')) as { tasks: PersonaTask[] }).tasks;

/** The persona's tasks as the simulator's answer key takes them: the facts and habits of the simulated model. */
export function researcherItems(): TaskItem[] {
  return RESEARCHER_TASKS.map((task) => ({ id: task.id, taskType: 'sleep', question: task.intent, references: [task.reference], tags: task.tags }));
}
