import { AGENT_TASK_FILE } from './agent-task-file.js';

/**
 * The prompt of an agent rollout. The task itself is in `task.md`, so the prompt only says where
 * it is, what the env adds about the task (`taskNotes`: the answer's form, where the item's files
 * are), that the skill the harness installed applies, and where the final answer goes: the same
 * `<answer>` tags chat replies are scored from.
 */
export function buildAgentTaskPrompt(taskNotes = ''): string {
  const notes = taskNotes.trim();
  return [
    `Read \`${AGENT_TASK_FILE}\` in your working directory: it holds your task.${notes === '' ? '' : ` ${notes}`}`,
    'Follow the skill document your harness gave you; it was written for tasks like this one.',
    'Work from the files in the working directory only; change none of them, and ask no questions, since nobody will answer.',
    'End your reply with your final answer inside <answer></answer>.',
  ].join('\n');
}
