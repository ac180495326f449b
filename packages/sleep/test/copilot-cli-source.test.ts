import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REDACTED } from '@skillopt/contract';
import { projectScope } from '../src/harvest/project-scope';
import { sqliteEngine } from '../src/sqlite/sql-js-engine';
import { copilotCliSource } from '../src/sources/copilot-cli/copilot-cli-source';
import { parseWorkspaceYaml } from '../src/sources/copilot-cli/workspace-yaml';
import { harvestOneSource } from './harvest-one-source';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const FIXTURE_SESSION = path.join(CLI_TRANSCRIPTS, 'copilot/session-state/SESSION_ID');
const FIXTURE_SESSION_ID = '2d475647-0f33-402a-9df1-7d291b1ab669';

let home: string;
let storeFile: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'sleep-copilot-cli-'));
  storeFile = path.join(home, 'session-store.db');
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The real CLI's session folder, copied under our home as `session-state/<folder>`. */
function copyFixtureSession(folder = FIXTURE_SESSION_ID): string {
  const target = path.join(home, 'session-state', folder);
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(FIXTURE_SESSION, target, { recursive: true });
  return target;
}

function harvest(options: { scope?: readonly string[]; since?: number; requested?: boolean } = {}) {
  return harvestOneSource(copilotCliSource, {
    locations: { copilotHome: home, copilotSessionStore: storeFile },
    scope: projectScope(options.scope ?? 'all'),
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.requested === undefined ? {} : { requested: options.requested }),
  });
}

interface StoreSession {
  id: string;
  cwd: string | null;
  branch?: string;
  createdAt: string;
  updatedAt: string;
  turns: Array<[string, string]>;
  files?: Array<[string, string]>;
}

// The store's tables as upstream-sleep §2.4 names them; no real store was captured.
const STORE_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, branch TEXT, created_at TEXT, updated_at TEXT);
  CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT);
  CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT);`;

/** A session store of ours, built from the spec's shapes and written by sql.js. */
async function writeSessionStore(sessions: readonly StoreSession[]): Promise<void> {
  const engine = await sqliteEngine();
  const database = new engine.Database();
  database.run(STORE_SCHEMA);
  for (const session of sessions) {
    database.run('INSERT INTO sessions (id, cwd, repository, branch, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      session.id,
      session.cwd,
      'octo/repo',
      session.branch ?? null,
      session.createdAt,
      session.updatedAt,
    ]);
    // Inserted in reverse, so only ORDER BY turn_index puts them right.
    [...session.turns].reverse().forEach(([prompt, reply], reversedIndex) => {
      database.run('INSERT INTO turns VALUES (?, ?, ?, ?)', [session.id, session.turns.length - 1 - reversedIndex, prompt, reply]);
    });
    for (const [file, tool] of session.files ?? []) database.run('INSERT INTO session_files VALUES (?, ?, ?)', [session.id, file, tool]);
  }
  await writeFile(storeFile, database.export());
  database.close();
}

describe('the GitHub Copilot CLI source', () => {
  it('reads the real CLI’s session-state folder (shared fixture) into one record, tools by name only', async () => {
    copyFixtureSession();
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'copilot-cli',
      sessionId: FIXTURE_SESSION_ID,
      project: '/home/user/project',
      task: 'Read task.md and answer',
      startedAt: '2026-11-29T06:47:27.637Z',
      // The shutdown event's time: the last thing the session did.
      endedAt: '2026-11-29T06:47:28.057Z',
      userTurnCount: 1,
      assistantTurnCount: 2,
      location: path.join(home, 'session-state', FIXTURE_SESSION_ID, 'events.jsonl'),
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text, turn.timestamp])).toEqual([
      ['user', 'Read task.md and answer', '2026-11-29T06:47:27.768Z'],
      ['assistant', 'hi', '2026-11-29T06:47:28.038Z'],
    ]);
    expect(session?.toolCalls).toEqual([{ name: 'bash', afterTurn: 0 }]);
    const text = JSON.stringify(session);
    // Neither the tool's command nor its output, nor the CLI's own system prompt or context.
    expect(text).not.toContain('cat task.md');
    expect(text).not.toContain('What is 2+2?');
    expect(text).not.toContain('You are the GitHub Copilot CLI');
    expect(text).not.toContain('current_datetime');
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, filesSkippedUnopened: 0, sessions: 1, corruptLineCount: 0, warnings: [] });
    expect(report.bytesRead).toBeGreaterThan(9000);
  });

  it('takes the session id from workspace.yaml, and the folder from the events when workspace.yaml has none (shared fixture, workspace.yaml cut by us)', async () => {
    const folder = copyFixtureSession('SESSION_ID');
    writeFileSync(path.join(folder, 'workspace.yaml'), `id: ${FIXTURE_SESSION_ID}\nname: Read task.md and answer\n`);
    const { sessions } = await harvest();
    expect(sessions.map((session) => [session.sessionId, session.project])).toEqual([[FIXTURE_SESSION_ID, '/home/user/project']]);
  });

  it('leaves unopened the folders whose events were last written before the window, or whose workspace.yaml folder is out of scope (shared fixture, workspace.yaml of ours)', async () => {
    const old = copyFixtureSession('old-session');
    writeFileSync(path.join(old, 'workspace.yaml'), 'id: old-session\ncwd: /home/user/project\n');
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(path.join(old, 'events.jsonl'), past, past);
    const elsewhere = copyFixtureSession('elsewhere-session');
    writeFileSync(path.join(elsewhere, 'workspace.yaml'), 'id: elsewhere-session\ncwd: /home/user/other\n');
    const { sessions, report } = await harvest({ scope: ['/home/user/project'], since: Date.parse('2026-06-01T00:00:00Z') });
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesFound: 2, filesRead: 0, filesSkippedUnopened: 2, bytesRead: 0 });
    expect(report.skipped).toMatchObject({ 'outside-window': 1, 'outside-scope': 1 });
  });

  it('reports a corrupt event line with its file and number, and reads the rest (shared fixture with a broken line of ours)', async () => {
    const folder = copyFixtureSession();
    appendFileSync(path.join(folder, 'events.jsonl'), '{"type":"user.message","data":{"content":"cut off mid-wr\n');
    appendFileSync(
      path.join(folder, 'events.jsonl'),
      `${JSON.stringify({ type: 'user.message', data: { content: 'still broken, key sk-proj-abcdefghijklmnop1234' }, timestamp: '2026-11-29T06:50:00.000Z' })}\n`,
    );
    const { sessions, report } = await harvest();
    expect(report.corruptLines).toEqual([{ file: path.join(folder, 'events.jsonl'), line: 15, message: expect.stringContaining('not JSON') }]);
    const [session] = sessions;
    expect(session?.userTurnCount).toBe(2);
    expect(session?.turns.at(-1)).toEqual({ role: 'user', text: `still broken, key ${REDACTED}`, timestamp: '2026-11-29T06:50:00.000Z' });
    expect(session?.outcomeSignals).toContainEqual(expect.objectContaining({ kind: 'user-feedback', polarity: 'negative', phrase: 'still broken' }));
    expect(JSON.stringify(session)).not.toContain('sk-proj-');
  });

  it('reads errors, the branch and the files a session changed, never tool output (fixture of ours, built from the real events’ shapes)', async () => {
    const folder = path.join(home, 'session-state', 'with-error');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'workspace.yaml'), 'id: with-error\ncwd: /home/user/project\nbranch: fix/flaky\n');
    writeFileSync(
      path.join(folder, 'events.jsonl'),
      [
        {
          type: 'session.start',
          data: { sessionId: 'with-error', startTime: '2026-11-29T07:00:00.000Z', context: { cwd: '/home/user/project' } },
          timestamp: '2026-11-29T07:00:00.000Z',
        },
        { type: 'user.message', data: { content: 'fix the flaky test' }, timestamp: '2026-11-29T07:00:01.000Z' },
        {
          type: 'tool.execution_start',
          data: { toolName: 'edit', arguments: { path: 'test/flaky.test.ts', secret: 'tool-argument-text' } },
          timestamp: '2026-11-29T07:00:02.000Z',
        },
        { type: 'tool.execution_complete', data: { success: true, result: { content: 'tool-output-text' } }, timestamp: '2026-11-29T07:00:03.000Z' },
        { type: 'session.error', data: { errorType: 'model', message: 'the model call failed' }, timestamp: '2026-11-29T07:00:04.000Z' },
        { type: 'session.shutdown', data: { codeChanges: { filesModified: ['test/flaky.test.ts'] } }, timestamp: '2026-11-29T07:00:05.000Z' },
      ]
        .map((event) => JSON.stringify(event))
        .join('\n'),
    );
    const { sessions } = await harvest();
    expect(sessions[0]).toMatchObject({
      sessionId: 'with-error',
      gitBranch: 'fix/flaky',
      task: 'fix the flaky test',
      endedAt: '2026-11-29T07:00:05.000Z',
      toolCalls: [{ name: 'edit', afterTurn: 0 }],
      filesTouched: ['test/flaky.test.ts'],
      outcomeSignals: [{ kind: 'turn-error', detail: 'model: the model call failed' }],
    });
    expect(JSON.stringify(sessions[0])).not.toMatch(/tool-argument-text|tool-output-text/);
  });

  it('passes over a session whose events and workspace.yaml name no folder, and counts it (fixture of ours, built from the real events’ shapes)', async () => {
    const folder = path.join(home, 'session-state', 'no-folder');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'events.jsonl'),
      [
        { type: 'session.start', data: { sessionId: 'no-folder', startTime: '2026-11-29T07:00:00.000Z', context: {} }, timestamp: '2026-11-29T07:00:00.000Z' },
        { type: 'user.message', data: { content: 'fix the flaky test' }, timestamp: '2026-11-29T07:00:01.000Z' },
        { type: 'session.error', data: { errorType: 'model', message: 'the model call failed' }, timestamp: '2026-11-29T07:00:02.000Z' },
      ]
        .map((event) => JSON.stringify(event))
        .join('\n'),
    );
    const { sessions, report } = await harvest();
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1 });
    expect(report.skipped['outside-scope']).toBe(1);
  });

  it('reads the session store: full-time window (not the day), folderless rows counted, turns in order, tools and files distinct and sorted (fixture of ours, built from the spec’s shapes)', async () => {
    await writeSessionStore([
      {
        id: 'store-new',
        cwd: '/home/user/project',
        branch: 'feature/store',
        createdAt: '2026-11-29 09:30:00',
        updatedAt: '2026-11-29 10:00:00',
        turns: [
          ['make the parser stream, token sk-proj-abcdefghijklmnop1234', 'Done: the parser streams now.'],
          ['thanks, that works', 'Glad it helps.'],
        ],
        files: [
          ['src/parser.ts', 'edit'],
          ['src/lexer.ts', 'view'],
          ['src/parser.ts', 'view'],
        ],
      },
      // Same day, before the window's start: the original's day cut re-read it.
      {
        id: 'store-earlier-same-day',
        cwd: '/home/user/project',
        createdAt: '2026-11-29 07:00:00',
        updatedAt: '2026-11-29 08:00:00',
        turns: [['an earlier task', 'ok']],
      },
      { id: 'store-no-folder', cwd: null, createdAt: '2026-11-29 09:00:00', updatedAt: '2026-11-29 11:00:00', turns: [['a task from nowhere', 'ok']] },
    ]);
    const { sessions, report } = await harvest({ since: Date.parse('2026-11-29T09:00:00Z') });
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'copilot-cli',
      sessionId: 'store-new',
      project: '/home/user/project',
      gitBranch: 'feature/store',
      task: `make the parser stream, token ${REDACTED}`,
      startedAt: '2026-11-29T09:30:00.000Z',
      endedAt: '2026-11-29T10:00:00.000Z',
      userTurnCount: 2,
      assistantTurnCount: 2,
      location: `${storeFile}#store-new`,
      filesTouched: ['src/lexer.ts', 'src/parser.ts'],
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', `make the parser stream, token ${REDACTED}`],
      ['assistant', 'Done: the parser streams now.'],
      ['user', 'thanks, that works'],
      ['assistant', 'Glad it helps.'],
    ]);
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['edit', 'view']);
    expect(session?.outcomeSignals).toContainEqual(expect.objectContaining({ kind: 'user-feedback', polarity: 'positive', phrase: 'thanks' }));
    expect(JSON.stringify(session)).not.toContain('sk-proj-');
    expect(report).toMatchObject({ filesFound: 3, filesRead: 1, filesSkippedUnopened: 2, sessions: 1, warnings: [] });
    expect(report.skipped).toMatchObject({ 'outside-window': 1, 'outside-scope': 1 });
    expect(report.locations).toEqual([path.join(home, 'session-state'), storeFile]);
  });

  it('yields a session in both stores once, from its events, and orders both stores’ sessions newest first (shared fixture plus a store of ours)', async () => {
    copyFixtureSession();
    const eventsTime = new Date('2026-11-29T06:47:28.100Z');
    utimesSync(path.join(home, 'session-state', FIXTURE_SESSION_ID, 'events.jsonl'), eventsTime, eventsTime);
    await writeSessionStore([
      {
        id: FIXTURE_SESSION_ID,
        cwd: '/home/user/project',
        createdAt: '2026-11-29 06:47:27',
        updatedAt: '2026-11-29 06:47:28',
        turns: [['Read task.md and answer', 'hi']],
      },
      { id: 'store-later', cwd: '/home/user/project', createdAt: '2026-11-29 08:00:00', updatedAt: '2026-11-29 08:30:00', turns: [['a later task', 'ok']] },
      {
        id: 'store-earlier',
        cwd: '/home/user/project',
        createdAt: '2026-11-28 08:00:00',
        updatedAt: '2026-11-28 08:30:00',
        turns: [['an earlier task', 'ok']],
      },
    ]);
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => [session.sessionId, path.basename(session.location)])).toEqual([
      ['store-later', 'session-store.db#store-later'],
      [FIXTURE_SESSION_ID, 'events.jsonl'],
      ['store-earlier', 'session-store.db#store-earlier'],
    ]);
    expect(report).toMatchObject({ filesFound: 3, filesRead: 3, sessions: 3 });
  });

  it('says which locations are missing, with warnings when asked for by name', async () => {
    const quiet = await harvest();
    expect(quiet.sessions).toEqual([]);
    expect(quiet.report.locations).toEqual([path.join(home, 'session-state'), storeFile]);
    expect(quiet.report.warnings).toEqual([]);
    const asked = await harvest({ requested: true });
    expect(asked.report.warnings.map((warning) => warning.path)).toEqual([path.join(home, 'session-state'), storeFile]);
  });

  it('warns of a database that is not a session store, and still reads the session-state folder', async () => {
    copyFixtureSession();
    const engine = await sqliteEngine();
    const database = new engine.Database();
    database.run('CREATE TABLE unrelated (id TEXT)');
    await writeFile(storeFile, database.export());
    database.close();
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => session.sessionId)).toEqual([FIXTURE_SESSION_ID]);
    expect(report.warnings).toEqual([{ path: storeFile, message: expect.stringContaining('not a Copilot CLI session store: no "sessions" table') }]);
  });
});

describe('the workspace.yaml reader', () => {
  it('reads the real file’s flat keys (shared fixture)', () => {
    const fields = parseWorkspaceYaml(readFileSync(path.join(FIXTURE_SESSION, 'workspace.yaml'), 'utf8'));
    expect(fields).toEqual({
      id: '2d475647-0f33-402a-9df1-7d291b1ab669',
      cwd: '/home/user/project',
      client_name: 'github/cli',
      name: 'Read task.md and answer',
      user_named: 'false',
      summary_count: '0',
      fork_count: '0',
      created_at: '2026-11-29T06:47:27.637Z',
      updated_at: '2026-11-29T06:47:27.734Z',
    });
  });

  it('unquotes values, drops comments, and passes over block scalars and indented lines', () => {
    const fields = parseWorkspaceYaml(
      [
        'cwd: "C:\\\\work\\\\repo"',
        "name: 'it''s a name'",
        'branch: main # the default',
        'summary: |-',
        '  cwd: /not/this/one',
        '  more text',
        'id: first',
        'id: second',
        '__proto__: kept as a key',
      ].join('\r\n'),
    );
    expect(Object.entries(fields)).toEqual([
      ['cwd', 'C:\\work\\repo'],
      ['name', "it's a name"],
      ['branch', 'main'],
      ['id', 'first'],
      ['__proto__', 'kept as a key'],
    ]);
  });
});
