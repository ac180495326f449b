import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type DatabaseOpening, openReadOnlyDatabase, type ReadOnlyDatabase } from '../src/sqlite/read-only-database';
import { sqliteEngine } from '../src/sqlite/sql-js-engine';
import { applyWriteAheadLog } from '../src/sqlite/wal-overlay';
import { openSqliteSession } from './sqlite-command-line';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'sleep-sqlite-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function opened(opening: DatabaseOpening): ReadOnlyDatabase {
  if (opening.kind !== 'opened')
    throw new Error(`expected an opened database, got ${opening.kind}${opening.kind === 'unreadable' ? `: ${opening.error.message}` : ''}`);
  return opening.database;
}

function notes(database: ReadOnlyDatabase): string[] {
  return [...database.rows('SELECT body FROM note ORDER BY id')].map((row) => String(row.body));
}

const WAL_SETUP = 'PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT);';

/** A WAL database whose table is in the main file and whose rows are all in the WAL. */
async function databaseWithRowsInTheWal(rows: string[]): Promise<string> {
  const live = path.join(folder, 'live.db');
  const session = openSqliteSession(live);
  // The table is checkpointed into the main file; the rows after it stay in the WAL only.
  await session.run(`${WAL_SETUP} PRAGMA wal_checkpoint(TRUNCATE);`);
  for (const body of rows) await session.run(`INSERT INTO note(body) VALUES ('${body}');`);
  const copy = path.join(folder, 'copy.db');
  await session.snapshot(copy);
  await session.close();
  return copy;
}

describe('opening an SQLite database read-only through sql.js', () => {
  it('reads rows committed to the WAL since the last checkpoint, which the main file alone does not hold', async () => {
    const database = await databaseWithRowsInTheWal(['first', 'second', 'third']);
    const engine = await sqliteEngine();
    const mainFileOnly = new engine.Database(await readFile(database));
    expect(mainFileOnly.exec('SELECT count(*) FROM note')[0]?.values).toEqual([[0]]);
    mainFileOnly.close();

    const reader = opened(await openReadOnlyDatabase(database));
    expect(notes(reader)).toEqual(['first', 'second', 'third']);
    expect(reader.bytesRead).toBe((await stat(database)).size + (await stat(`${database}-wal`)).size);
    reader.close();
  });

  it('leaves out the frames of a transaction not yet committed', async () => {
    const live = path.join(folder, 'live.db');
    const session = openSqliteSession(live);
    await session.run(`${WAL_SETUP} INSERT INTO note(body) VALUES ('committed');`);
    const before = path.join(folder, 'before.db');
    await session.snapshot(before);
    // A cache of a few pages spills the open transaction's pages into the WAL before any commit.
    await session.run(
      `PRAGMA cache_size=2; BEGIN; INSERT INTO note(body) SELECT 'uncommitted ' || value || ' ' || hex(zeroblob(500)) FROM generate_series(1, 200);`,
    );
    const during = path.join(folder, 'during.db');
    await session.snapshot(during);
    await session.close();

    expect((await stat(`${during}-wal`)).size).toBeGreaterThan((await stat(`${before}-wal`)).size);
    const reader = opened(await openReadOnlyDatabase(during));
    expect(notes(reader)).toEqual(['committed']);
    reader.close();
  });

  it('stops at a frame whose checksum fails: the commit it belongs to and every later one are dropped', async () => {
    const database = await databaseWithRowsInTheWal(['kept', 'lost']);
    const wal = `${database}-wal`;
    const { size } = await stat(wal);
    // The last frame is the commit of the second insert; one flipped byte of its page breaks it.
    const handle = await open(wal, 'r+');
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 100);
    byte[0] = (byte[0] ?? 0) ^ 0xff;
    await handle.write(byte, 0, 1, size - 100);
    await handle.close();

    const reader = opened(await openReadOnlyDatabase(database));
    expect(notes(reader)).toEqual(['kept']);
    reader.close();
  });

  it('applies no frame whose salts differ from the header’s (a frame left from before a checkpoint)', async () => {
    const database = await databaseWithRowsInTheWal(['only']);
    const wal = `${database}-wal`;
    const handle = await open(wal, 'r+');
    // Frame 1's first salt, at byte 32 + 8: the checksum does not cover it, the salt check does.
    await handle.write(Buffer.from([0xde, 0xad, 0xbe, 0xef]), 0, 4, 40);
    await handle.close();

    const overlay = await applyWriteAheadLog(await readFile(database), wal);
    expect(overlay.pagesApplied).toBe(0);
    expect(overlay.commits).toBe(0);
    const reader = opened(await openReadOnlyDatabase(database));
    expect(notes(reader)).toEqual([]);
    reader.close();
  });

  it('ignores a WAL whose header is not valid, as SQLite does', async () => {
    const database = await databaseWithRowsInTheWal(['hidden']);
    const wal = `${database}-wal`;
    const handle = await open(wal, 'r+');
    await handle.write(Buffer.from([0, 0, 0, 0]), 0, 4, 0);
    await handle.close();
    const overlay = await applyWriteAheadLog(await readFile(database), wal);
    expect(overlay).toMatchObject({ pagesApplied: 0, commits: 0, bytesRead: 32 });
  });

  it('never writes the user’s files: the database and its WAL are byte for byte unchanged after reading', async () => {
    const database = await databaseWithRowsInTheWal(['one', 'two']);
    const mainBefore = await readFile(database);
    const walBefore = await readFile(`${database}-wal`);
    const reader = opened(await openReadOnlyDatabase(database));
    expect(notes(reader)).toEqual(['one', 'two']);
    reader.close();
    expect((await readFile(database)).equals(mainBefore)).toBe(true);
    expect((await readFile(`${database}-wal`)).equals(walBefore)).toBe(true);
  });

  it('says a missing database is missing', async () => {
    expect(await openReadOnlyDatabase(path.join(folder, 'absent.db'))).toEqual({ kind: 'missing' });
  });

  it('reports a file that is not a database, and one that is damaged past its header, as unreadable', async () => {
    const garbage = path.join(folder, 'garbage.db');
    await writeFile(garbage, 'this is not a database at all, just text that is long enough to have a header'.repeat(3));
    const notDatabase = await openReadOnlyDatabase(garbage);
    expect(notDatabase.kind).toBe('unreadable');
    expect(notDatabase.kind === 'unreadable' && notDatabase.error.message).toMatch(/not an SQLite database/);

    const damaged = path.join(folder, 'damaged.db');
    const engine = await sqliteEngine();
    const source = new engine.Database();
    source.run('CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)');
    const bytes = Buffer.from(source.export());
    source.close();
    // Keep the 100-byte header, overwrite the schema page with noise.
    bytes.fill(0x5a, 100);
    await writeFile(damaged, bytes);
    expect((await openReadOnlyDatabase(damaged)).kind).toBe('unreadable');
  });

  it('does not load a database larger than its limit, and says so', async () => {
    const database = await databaseWithRowsInTheWal(['row']);
    const opening = await openReadOnlyDatabase(database, { maxBytes: 1024 });
    expect(opening.kind).toBe('unreadable');
    expect(opening.kind === 'unreadable' && opening.error.message).toMatch(/more than the 1024 this reader loads/);
  });

  it('lists a table’s columns, and none for a table that does not exist', async () => {
    const reader = opened(await openReadOnlyDatabase(await databaseWithRowsInTheWal([])));
    expect([...reader.columnsOf('note')]).toEqual(['id', 'body']);
    expect(reader.columnsOf('absent').size).toBe(0);
    reader.close();
  });
});
