import type { Message } from '@skillopt/contract';
import type { TaskRecord } from '../tasks/task-record.js';

/** The most of a task's recorded context a replay shows the model. */
const CONTEXT_CHARACTERS = 1_200;

/**
 * The messages a replay sends: the skill document the developer's agent reads (inside `<skill>`
 * tags, so a reader of the prompt, the simulated model included, can tell it from our framing),
 * then the request as the developer made it. A task file's own `system` text replaces our framing:
 * the developer wrote it for exactly this task.
 */
export function replayMessages(task: TaskRecord, document: string): Message[] {
  const framing =
    task.system.trim() !== ''
      ? task.system.trim()
      : 'You are the coding agent a developer works with. Answer the request below as you would in their session. ' +
        'The skill document holds their standing instructions: follow every one that applies.';
  const system = `${framing}\n\n<skill>\n${document.trim()}\n</skill>`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: replayRequestText(task) },
  ];
}

/** The request as a replay shows it, to a chat model and to an agent alike: the intent, then some of its context. */
export function replayRequestText(task: TaskRecord): string {
  const context = task.contextExcerpt.trim();
  return context === '' ? task.intent : `${task.intent}\n\n${context.slice(0, CONTEXT_CHARACTERS)}`;
}
