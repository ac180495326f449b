import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '@skillopt/runtime-kit';

/** The format name of `index.json`, for readers that check what they read. */
export const HANDOFF_INDEX_FORMAT = 'skillopt.handoff.v1';

/** What the answer to a request must be. */
export type AnswerFormat = { type: 'text' } | { type: 'json'; schema?: Record<string, unknown> | undefined };

/** One waiting request, as index.json lists it (paths relative to the folder). */
export interface PendingRequestEntry {
  id: string;
  /** The caller's identity of the request (core's `rollout/<skill>/<item>/<sample>/<call>`), when it gave one. */
  requestKey?: string;
  role: string;
  purpose: string;
  /** The prompt for a person or an agent to read. */
  promptFile: string;
  /** The request as the model would have received it (messages, answer format), for a program to read. */
  requestFile: string;
  /** Where the answer goes: the answer's text alone. */
  answerFile: string;
  answerFormat: AnswerFormat;
  /** Why an answer that was there could not be used; the request waits again. */
  problem?: string;
}

export interface HandoffIndex {
  format: typeof HANDOFF_INDEX_FORMAT;
  /** The folder's absolute path, for an agent run from elsewhere. */
  directory: string;
  pending: PendingRequestEntry[];
}

/**
 * The handoff folder: `index.json` (every request waiting), `requests/<id>.md` and `.json` (each
 * prompt, for a reader and for a program), `answers/<id>.md` (written by the user's agent). Every
 * file is written atomically, and the index's updates are made one after another, so concurrent
 * requests never lose each other's entries. The index lists what this process asked and got no
 * usable answer for: a resumed run asks again whatever it still needs, so an entry of an earlier
 * process that is no longer asked (answered, or no longer needed) leaves the index with the first
 * change. One process has one folder object per folder (handoffFolderAt), however many backends
 * it creates on it.
 */
export class HandoffFolder {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly entries = new Map<string, PendingRequestEntry>();

  constructor(readonly directory: string) {}

  /** A request id that names a file safely: the purpose for the reader, then a hash of the identity. */
  static requestId(purpose: string, identity: string): string {
    const readable = purpose.replace(/[^a-z0-9-]+/gi, '-').slice(0, 24) || 'request';
    return `${readable}-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
  }

  answerPath(id: string): string {
    return path.join(this.directory, 'answers', `${id}.md`);
  }

  /** The answer's text, or undefined when there is none yet. */
  async readAnswer(id: string): Promise<string | undefined> {
    return readFile(this.answerPath(id), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  /** Writes the request's files and lists it in the index (replacing an earlier entry of the same id). */
  addPending(entry: Omit<PendingRequestEntry, 'promptFile' | 'requestFile' | 'answerFile'>, prompt: string, request: unknown): Promise<PendingRequestEntry> {
    return this.serialised(async (entries) => {
      const listed: PendingRequestEntry = {
        ...entry,
        promptFile: `requests/${entry.id}.md`,
        requestFile: `requests/${entry.id}.json`,
        answerFile: `answers/${entry.id}.md`,
      };
      await writeFileAtomic(path.join(this.directory, listed.promptFile), prompt);
      await writeFileAtomic(path.join(this.directory, listed.requestFile), `${JSON.stringify(request, null, 2)}\n`);
      entries.set(entry.id, listed);
      return listed;
    });
  }

  /** Takes an answered request off the index. */
  removePending(id: string): Promise<void> {
    return this.serialised(async (entries) => {
      entries.delete(id);
    });
  }

  private serialised<Result>(change: (entries: Map<string, PendingRequestEntry>) => Promise<Result>): Promise<Result> {
    const next = this.queue.then(async () => {
      const result = await change(this.entries);
      const index: HandoffIndex = { format: HANDOFF_INDEX_FORMAT, directory: path.resolve(this.directory), pending: [...this.entries.values()] };
      await writeFileAtomic(path.join(this.directory, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
      return result;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** The folders this process writes to, by absolute path. */
const foldersOfProcess = new Map<string, HandoffFolder>();

/**
 * The folder at `directory`, shared by every backend this process creates on it: a Sleep night
 * runs each skill with backends of its own, and the index must list every skill's requests, not
 * only the last one's.
 */
export function handoffFolderAt(directory: string): HandoffFolder {
  const absolute = path.resolve(directory);
  const known = foldersOfProcess.get(absolute);
  if (known !== undefined) return known;
  const folder = new HandoffFolder(absolute);
  foldersOfProcess.set(absolute, folder);
  return folder;
}
