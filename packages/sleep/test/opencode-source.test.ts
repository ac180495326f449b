import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { projectScope } from '../src/harvest/project-scope';
import { sqliteEngine } from '../src/sqlite/sql-js-engine';
import { opencodeSource } from '../src/sources/opencode-source';
import { harvestOneSource } from './harvest-one-source';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

interface ExportedRow {
  table: 'session' | 'message' | 'part';
  row: Record<string, unknown>;
}

const EXPORT_FILE = path.join(CLI_TRANSCRIPTS, 'opencode/opencode-db-session-export.jsonl');
const EXPORTED: ExportedRow[] = readFileSync(EXPORT_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as ExportedRow);
const SESSION_ID = 'ses_dd9ef92b4ffeiNYoXC5YCgON2g';

// OpenCode's tables as the export's columns show them; `data` holds JSON text, as in opencode.db.
const SCHEMA = `
  CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, workspace_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, path TEXT,
    title TEXT, version TEXT, share_url TEXT, summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT,
    metadata TEXT, cost REAL, tokens_input INTEGER, tokens_output INTEGER, tokens_reasoning INTEGER, tokens_cache_read INTEGER,
    tokens_cache_write INTEGER, revert TEXT, permission TEXT, agent TEXT, model TEXT, time_created INTEGER, time_updated INTEGER,
    time_compacting INTEGER, time_archived INTEGER);
  CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
  CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
  CREATE INDEX part_message ON part(message_id);`;

type Cell = string | number | null;

function cell(value: unknown, column: string): Cell {
  if (value === null || value === undefined) return null;
  if (column === 'data' && typeof value !== 'string') return JSON.stringify(value);
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
}

/** A real opencode.db, written by sql.js, holding `rows` (the export's, and any of ours). */
async function writeOpencodeDatabase(file: string, rows: readonly ExportedRow[]): Promise<void> {
  const engine = await sqliteEngine();
  const database = new engine.Database();
  database.run(SCHEMA);
  for (const { table, row } of rows) {
    const columns = Object.keys(row);
    database.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      columns.map((column) => cell(row[column], column)),
    );
  }
  await writeFile(file, database.export());
  database.close();
}

/** A root session of ours, built from the spec's shapes: one prompt, one reply, optional extras. */
function sessionOfOurs(
  id: string,
  options: { directory?: string; agent?: string; parentId?: string | null; updated?: number; prompt?: string; reply?: Record<string, unknown> } = {},
): ExportedRow[] {
  const updated = options.updated ?? 1_800_000_000_000;
  return [
    {
      table: 'session',
      row: {
        id,
        parent_id: options.parentId ?? null,
        directory: options.directory ?? '/home/user/other',
        agent: options.agent ?? 'build',
        metadata: JSON.stringify({ gitBranch: 'feature/ours' }),
        time_created: updated - 5000,
        time_updated: updated,
      },
    },
    { table: 'message', row: { id: `${id}-user`, session_id: id, time_created: updated - 4000, data: { role: 'user', time: { created: updated - 4000 } } } },
    {
      table: 'part',
      row: {
        id: `${id}-user-text`,
        message_id: `${id}-user`,
        session_id: id,
        time_created: updated - 4000,
        data: { type: 'text', text: options.prompt ?? `the task of ${id}` },
      },
    },
    { table: 'message', row: { id: `${id}-reply`, session_id: id, time_created: updated - 1000, data: { role: 'assistant', ...options.reply } } },
    {
      table: 'part',
      row: {
        id: `${id}-reply-text`,
        message_id: `${id}-reply`,
        session_id: id,
        time_created: updated - 1000,
        data: { type: 'text', text: `the answer of ${id}` },
      },
    },
  ];
}

let folder: string;
let databaseFile: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'sleep-opencode-'));
  databaseFile = path.join(folder, 'opencode.db');
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the OpenCode source', () => {
  it('harvests the real session exported from opencode.db (shared fixture) into one record', async () => {
    await writeOpencodeDatabase(databaseFile, EXPORTED);
    const { sessions, report } = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'opencode',
      sessionId: SESSION_ID,
      project: '/home/user/project',
      task: '"Read task.md and answer"',
      startedAt: new Date(1795934940492).toISOString(),
      endedAt: new Date(1795934941930).toISOString(),
      userTurnCount: 1,
      assistantTurnCount: 2,
      location: `${databaseFile}#${SESSION_ID}`,
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', '"Read task.md and answer"'],
      ['assistant', 'hi'],
    ]);
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['bash']);
    expect(session?.outcomeSignals).toEqual([]);
    // No tool input or output reaches the record.
    expect(JSON.stringify(session)).not.toContain('cat task.md');
    expect(JSON.stringify(session)).not.toContain('What is 2+2?');
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, sessions: 1, tasks: 1, corruptLineCount: 0, warnings: [] });
    expect(report.bytesRead).toBeGreaterThan(0);
  });

  it('reads root sessions only, newest first, and leaves out the backend’s own sessions by agent name (fixture of ours, built from the spec’s shapes)', async () => {
    await writeOpencodeDatabase(databaseFile, [
      ...sessionOfOurs('ses_old', { updated: 1_800_000_000_000 }),
      ...sessionOfOurs('ses_new', { updated: 1_800_000_100_000 }),
      ...sessionOfOurs('ses_child', { parentId: 'ses_new', updated: 1_800_000_200_000 }),
      ...sessionOfOurs('ses_own', { agent: `skillopt-sleep-${'0123456789abcdef'.repeat(2)}`, updated: 1_800_000_300_000 }),
    ]);
    const { sessions, report } = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    expect(sessions.map((session) => session.sessionId)).toEqual(['ses_new', 'ses_old']);
    expect(sessions[0]).toMatchObject({ gitBranch: 'feature/ours', project: '/home/user/other', task: 'the task of ses_new' });
    expect(report.skipped['own-session']).toBe(1);
    expect(report.filesFound).toBe(3);
  });

  it('turns an assistant message’s error into a turn-error signal, and redacts secrets in prompts and errors (fixture of ours, built from the spec’s shapes)', async () => {
    await writeOpencodeDatabase(databaseFile, [
      ...sessionOfOurs('ses_error', {
        prompt: 'deploy with OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789 please',
        reply: { error: { name: 'ProviderAuthError', data: { message: 'rejected key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' } } },
      }),
    ]);
    const { sessions } = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    const text = JSON.stringify(sessions);
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(sessions[0]?.outcomeSignals).toEqual([{ kind: 'turn-error', detail: expect.stringContaining('ProviderAuthError') }]);
  });

  it('reports a message row whose data is not JSON with its row, and still reads the rest of the session (fixture of ours, built from the spec’s shapes)', async () => {
    const rows = sessionOfOurs('ses_corrupt');
    rows.push({
      table: 'message',
      row: { id: 'ses_corrupt-broken', session_id: 'ses_corrupt', time_created: 1_800_000_000_000 - 2000, data: '{"role": "assistant", ' },
    });
    await writeOpencodeDatabase(databaseFile, rows);
    const { sessions, report } = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['the task of ses_corrupt', 'the answer of ses_corrupt']);
    expect(report.corruptLineCount).toBe(1);
    expect(report.corruptLines[0]).toMatchObject({ file: databaseFile, line: 3, message: expect.stringContaining('ses_corrupt-broken') });
  });

  it('applies the window in SQL and counts the older sessions as passed over unopened (fixture of ours, built from the spec’s shapes)', async () => {
    await writeOpencodeDatabase(databaseFile, [
      ...sessionOfOurs('ses_before', { updated: 1_800_000_000_000 }),
      ...sessionOfOurs('ses_after', { updated: 1_800_000_500_000 }),
    ]);
    const { sessions, report } = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile }, since: 1_800_000_000_001 });
    expect(sessions.map((session) => session.sessionId)).toEqual(['ses_after']);
    expect(report).toMatchObject({ filesFound: 2, filesSkippedUnopened: 1 });
    expect(report.skipped['outside-window']).toBe(1);
  });

  it('reads only sessions of the projects in scope, without reading the others’ messages (fixture of ours, built from the spec’s shapes)', async () => {
    await writeOpencodeDatabase(databaseFile, [...EXPORTED, ...sessionOfOurs('ses_elsewhere', { directory: '/home/user/elsewhere' })]);
    const { sessions, report } = await harvestOneSource(opencodeSource, {
      locations: { opencodeDatabase: databaseFile },
      scope: projectScope(['/home/user/project']),
    });
    expect(sessions.map((session) => session.sessionId)).toEqual([SESSION_ID]);
    expect(report.skipped['outside-scope']).toBe(1);
    expect(report.filesSkippedUnopened).toBe(1);
  });

  it('warns of a missing database when OpenCode was asked for by name, and only lists it otherwise', async () => {
    const absent = path.join(folder, 'absent.db');
    const requested = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: absent }, requested: true });
    expect(requested.sessions).toEqual([]);
    expect(requested.report.warnings).toEqual([{ path: absent, message: expect.stringContaining('does not exist') }]);
    const quiet = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: absent } });
    expect(quiet.report.warnings).toEqual([]);
    expect(quiet.report.locations).toEqual([absent]);
  });

  it('warns, without failing, of a file that is not a database and of a database without OpenCode’s tables', async () => {
    await writeFile(databaseFile, 'garbage '.repeat(100));
    const garbage = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    expect(garbage.sessions).toEqual([]);
    expect(garbage.report.warnings).toEqual([{ path: databaseFile, message: expect.stringContaining('not an SQLite database') }]);

    const engine = await sqliteEngine();
    const other = new engine.Database();
    other.run('CREATE TABLE something_else (id TEXT)');
    await writeFile(databaseFile, other.export());
    other.close();
    const foreign = await harvestOneSource(opencodeSource, { locations: { opencodeDatabase: databaseFile } });
    expect(foreign.report.warnings).toEqual([{ path: databaseFile, message: expect.stringContaining('no "session" table') }]);
  });
});
