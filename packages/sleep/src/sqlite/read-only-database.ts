import { readFile, stat } from 'node:fs/promises';
import type { Database, SqlValue } from 'sql.js';
import { sqliteEngine } from './sql-js-engine.js';
import { applyWriteAheadLog } from './wal-overlay.js';

type SqlRow = Record<string, SqlValue>;
type SqlParameter = string | number | null;

/** A database opened as a private copy in memory: nothing done to it reaches the user's file. */
export interface ReadOnlyDatabase {
  readonly file: string;
  /** Bytes read from the database file and its WAL. */
  readonly bytesRead: number;
  /** The rows of one query, one at a time. */
  rows(sql: string, parameters?: readonly SqlParameter[]): Generator<SqlRow>;
  /** The columns of `table`, empty when there is no such table. */
  columnsOf(table: string): Set<string>;
  close(): void;
}

export type DatabaseOpening = { kind: 'opened'; database: ReadOnlyDatabase } | { kind: 'missing' } | { kind: 'unreadable'; error: Error };

export interface DatabaseOpenOptions {
  /** A database (with its WAL) larger than this is not loaded; default 512 MiB. */
  maxBytes?: number;
  signal?: AbortSignal | undefined;
}

/**
 * sql.js holds the database in memory, so its size is capped: a tool's own store stays far below
 * this (docs/adr/0015-sqlite-through-sql-js.md), and a file beyond it is reported, not loaded.
 */
const DEFAULT_MAX_DATABASE_BYTES = 512 * 1024 * 1024;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
// Bytes 18 and 19 of the header: the file format versions, 2 in WAL mode, 1 for a rollback journal.
const WRITE_VERSION_OFFSET = 18;
const READ_VERSION_OFFSET = 19;
const WAL_FORMAT = 2;
const ROLLBACK_FORMAT = 1;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function wrap(file: string, database: Database, bytesRead: number): ReadOnlyDatabase {
  return {
    file,
    bytesRead,
    *rows(sql, parameters = []) {
      const statement = database.prepare(sql);
      try {
        statement.bind([...parameters]);
        while (statement.step()) yield statement.getAsObject();
      } finally {
        statement.free();
      }
    },
    columnsOf(table) {
      const columns = new Set<string>();
      for (const row of this.rows('SELECT name FROM pragma_table_info(?)', [table])) if (typeof row.name === 'string') columns.add(row.name);
      return columns;
    },
    close() {
      database.close();
    },
  };
}

/**
 * Opens the SQLite database `file` for reading, with the rows its WAL (`<file>-wal`) has committed
 * since the last checkpoint. The file's bytes are read and the copy is opened in memory, so the
 * user's database is never opened for writing, never locked, and a tool writing it meanwhile is
 * not disturbed: read-only by construction.
 */
export async function openReadOnlyDatabase(file: string, options: DatabaseOpenOptions = {}): Promise<DatabaseOpening> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DATABASE_BYTES;
  try {
    const databaseSize = await sizeOf(file);
    if (databaseSize === undefined) return { kind: 'missing' };
    const walFile = `${file}-wal`;
    const walSize = (await sizeOf(walFile)) ?? 0;
    if (databaseSize + walSize > maxBytes) {
      return {
        kind: 'unreadable',
        error: new Error(`the database and its WAL hold ${databaseSize + walSize} bytes, more than the ${maxBytes} this reader loads`),
      };
    }
    const mainBytes = await readFile(file, { signal: options.signal });
    let bytes: Buffer = mainBytes;
    let bytesRead = mainBytes.length;
    if (walSize > 0) {
      const overlay = await applyWriteAheadLog(mainBytes, walFile, options.signal);
      bytes = overlay.database;
      bytesRead += overlay.bytesRead;
    }
    if (bytes.length > 0 && (bytes.length < 100 || !bytes.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))) {
      return { kind: 'unreadable', error: new Error('not an SQLite database (its header is not "SQLite format 3")') };
    }
    // The WAL is already applied: the copy is opened as a plain database, which sql.js can read.
    if (bytes[WRITE_VERSION_OFFSET] === WAL_FORMAT) bytes[WRITE_VERSION_OFFSET] = ROLLBACK_FORMAT;
    if (bytes[READ_VERSION_OFFSET] === WAL_FORMAT) bytes[READ_VERSION_OFFSET] = ROLLBACK_FORMAT;
    const engine = await sqliteEngine();
    const database = new engine.Database(bytes);
    try {
      // sql.js reads lazily: a damaged file shows itself only at the first query.
      database.exec('SELECT count(*) FROM sqlite_master');
    } catch (error) {
      database.close();
      return { kind: 'unreadable', error: asError(error) };
    }
    return { kind: 'opened', database: wrap(file, database, bytesRead) };
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    return { kind: 'unreadable', error: asError(error) };
  }
}
