import { ERROR_CODES, SkillOptError, type WorkspaceFile } from '@skillopt/contract';

/**
 * The file an agent rollout writes its task into, at the top of the agent's workspace. The prompt
 * names it, and the simulator reads whatever workspace file the prompt names, so its content is
 * the task exactly as the env's chat prompt presents it: the simulator then finds the item as it
 * does in chat.
 */
export const AGENT_TASK_FILE = 'task.md';

/**
 * The files of an agent's workspace: `task.md` holding `taskText`, then the item's own files, as
 * the request's `files`. An item file at the task file's path would hide the task, which is the
 * env's mistake, reported as such.
 */
export function agentTaskFiles(taskText: string, itemFiles: readonly WorkspaceFile[] = []): WorkspaceFile[] {
  const clash = itemFiles.find((file) => file.path === AGENT_TASK_FILE);
  if (clash !== undefined)
    throw new SkillOptError({
      code: ERROR_CODES.internal,
      category: 'internal',
      message: `an item file is placed at ${AGENT_TASK_FILE}, where the agent's task goes; put the item's files under a folder of their own`,
    });
  return [{ path: AGENT_TASK_FILE, content: taskText }, ...itemFiles];
}
