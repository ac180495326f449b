import path from 'node:path';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SourceContext } from '../../harvest/session-source.js';
import { toEpochMilliseconds } from '../../harvest/timestamps.js';
import { contentHash } from './content-hash.js';
import { deepestWorkspaceIn } from './workspace-in-text.js';

/**
 * agentmemory's store, which Devin sessions write to: `mem:memories`, a map of memory id to
 * `{ title, content }` (agentmemory adds its own times and project, read when present). Each
 * memory becomes a one-turn pseudo-session whose prompt is the memory itself.
 *
 * The original stamped these "now", so every night re-mined every memory (upstream-sleep §9 item
 * 9). Here a memory's time is its own `updatedAt` (or `createdAt`), never later than the store's
 * mtime, else that mtime: a window that starts after a night's harvest leaves unchanged memories
 * out, and only the memory that changed comes back, not all that share its file. The id is a hash
 * of the memory, so a changed memory is a new session, not an old one rewritten.
 */

interface Memory {
  title?: unknown;
  content?: unknown;
  project?: unknown;
  updatedAt?: unknown;
  createdAt?: unknown;
}

function memoriesOf(store: unknown): [string, Memory][] {
  const memories = (store as Record<string, unknown> | null)?.['mem:memories'];
  if (typeof memories !== 'object' || memories === null) return [];
  const entries = Array.isArray(memories) ? memories.map((memory, index) => [String(index), memory] as const) : Object.entries(memories);
  return entries.filter((entry): entry is [string, Memory] => typeof entry[1] === 'object' && entry[1] !== null);
}

function memoryTime(memory: Memory, fileModified: number): number {
  const own = toEpochMilliseconds(memory.updatedAt) ?? toEpochMilliseconds(memory.createdAt);
  return own === undefined ? fileModified : Math.min(own, fileModified);
}

/** The memories of a parsed store as pseudo-sessions, newest first; those the builder skips left out. */
export function readAgentMemories(
  store: unknown,
  file: string,
  fileModified: number,
  workspaces: readonly string[],
  context: SourceContext,
): HarvestedSession[] {
  const memories = memoriesOf(store)
    .map(([id, memory]) => ({ id, memory, time: memoryTime(memory, fileModified) }))
    .sort((left, right) => right.time - left.time);
  const sessions: HarvestedSession[] = [];
  for (const { id, memory, time } of memories) {
    const title = typeof memory.title === 'string' ? memory.title.trim() : '';
    const content = typeof memory.content === 'string' ? memory.content.trim() : '';
    if (content === '' && title === '') continue;
    const text = title === '' ? content : content === '' ? title : `${title}\n\n${content}`;
    const builder = context.newSession(`devin-memory-${contentHash(id, title, content)}`, `${file}#${id}`);
    const project = typeof memory.project === 'string' && path.isAbsolute(memory.project) ? memory.project : deepestWorkspaceIn(text, workspaces);
    builder.project(project);
    builder.userPrompt(text, time);
    const session = builder.finish(time);
    if (session !== undefined) sessions.push(session);
  }
  return sessions;
}
