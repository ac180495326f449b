import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';

/**
 * Real WAL databases for the tests, written by Debian's `sqlite3` (sql.js cannot write a WAL).
 *
 * SQLite checkpoints the WAL into the main file and deletes it when the last connection closes,
 * so a finished `sqlite3` run leaves no WAL behind. The session below keeps one `sqlite3` process
 * open: after each batch of statements it prints a marker, and while the process still holds the
 * database (and so has not checkpointed), `snapshot` copies the main file and its `-wal` as they
 * stand — exactly what a harvest finds beside a running OpenCode or Copilot CLI.
 */
export interface SqliteSession {
  /** Runs the statements and waits until `sqlite3` has executed them. */
  run(sql: string): Promise<void>;
  /** Copies the database and its WAL, as they are now, to `target` and `target-wal`. */
  snapshot(target: string): Promise<void>;
  close(): Promise<void>;
}

const MARKER = '__statements_done__';

export function openSqliteSession(databaseFile: string): SqliteSession {
  const child: ChildProcessWithoutNullStreams = spawn('sqlite3', ['-batch', databaseFile], { stdio: 'pipe' });
  let output = '';
  let errors = '';
  let waiter: (() => void) | undefined;
  let markersSeen = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    const count = output.split(MARKER).length - 1;
    if (count > markersSeen) {
      markersSeen = count;
      waiter?.();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  return {
    async run(sql) {
      const done = new Promise<void>((resolve, reject) => {
        waiter = resolve;
        exited.then(() => reject(new Error(`sqlite3 ended early: ${errors}`)), reject);
      });
      child.stdin.write(`${sql}\nSELECT '${MARKER}';\n`);
      await done;
      if (errors !== '') throw new Error(`sqlite3 reported: ${errors}`);
    },
    async snapshot(target) {
      await copyFile(databaseFile, target);
      await copyFile(`${databaseFile}-wal`, `${target}-wal`);
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
