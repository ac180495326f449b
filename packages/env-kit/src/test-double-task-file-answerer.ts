import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { AGENT_TASK_FILE } from './agent-task-file.js';
import { createReferenceAnswerKey, formatAnswerInTags } from './reference-answer-key.js';
import type { ReferenceAnsweringOptions } from './test-double-chat-model.js';

/**
 * TEST DOUBLE. What an agent that knows every answer replies once it has read `task.md` in
 * `workspace`: the first reference of the item the file is about, formatted by `formatAnswer`
 * (default `<answer>…</answer>`), else `unknownReply`. It scripts a fake harness, whose scenario
 * is chosen after the request's files are in the workspace, so the answer comes from the file the
 * env really wrote.
 */
export function createTaskFileAnswerer(items: readonly TaskItem[], options: ReferenceAnsweringOptions = {}): (workspace: string) => string {
  const findItem = createReferenceAnswerKey(items);
  const formatAnswer = options.formatAnswer ?? formatAnswerInTags;
  const unknownReply = options.unknownReply ?? 'I do not know.';
  return (workspace) => {
    const item = findItem(readFileSync(path.join(workspace, AGENT_TASK_FILE), 'utf8'));
    const reference = item?.references?.[0];
    return item === undefined || reference === undefined ? unknownReply : formatAnswer(reference, item);
  };
}
