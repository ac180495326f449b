import path from 'node:path';
import { createJsonLinesAppender, readJsonLinesFile, writeFileAtomic } from '@skillopt/core';
import { parseTaskRecord } from '../tasks/task-file.js';
import type { TaskRecord } from '../tasks/task-record.js';

/** Every project keeps the tasks of its past nights, for recall into later nights' training. */
const TASK_ARCHIVE_FILE = 'task-archive.jsonl';
/** How many archived tasks a project keeps (the newest), as the original did. */
const TASK_ARCHIVE_LIMIT = 300;

function archiveFile(projectStateDirectory: string): string {
  return path.join(projectStateDirectory, TASK_ARCHIVE_FILE);
}

async function readRecords(file: string): Promise<TaskRecord[]> {
  const content = await readJsonLinesFile(file, {
    accept: (value) => {
      const task = parseTaskRecord(value);
      return task === undefined ? { ok: false, reason: 'not a task record' } : { ok: true, record: task };
    },
  });
  return content.records;
}

/** The newest archived version of each task, oldest first, at most TASK_ARCHIVE_LIMIT of them. */
function newestPerTask(records: readonly TaskRecord[]): TaskRecord[] {
  const byId = new Map<string, TaskRecord>();
  for (const record of records) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()].slice(-TASK_ARCHIVE_LIMIT);
}

/** One project's archive: only its own nights' tasks are ever in it, so recall cannot cross projects. */
export async function readTaskArchive(projectStateDirectory: string): Promise<TaskRecord[]> {
  return newestPerTask(await readRecords(archiveFile(projectStateDirectory)));
}

/**
 * Appends a night's tasks to its project's archive (the caller holds the project's lock). The file
 * only grows by appends; once it holds twice the limit it is rewritten, atomically, with the newest
 * tasks alone, so a night costs the same however many came before it.
 */
export async function archiveTasks(projectStateDirectory: string, tasks: readonly TaskRecord[]): Promise<void> {
  if (tasks.length === 0) return;
  const file = archiveFile(projectStateDirectory);
  const appender = createJsonLinesAppender(file);
  try {
    await appender.append(...tasks);
  } finally {
    await appender.close();
  }
  const records = await readRecords(file);
  if (records.length > 2 * TASK_ARCHIVE_LIMIT)
    await writeFileAtomic(
      file,
      newestPerTask(records)
        .map((task) => `${JSON.stringify(task)}\n`)
        .join(''),
    );
}
