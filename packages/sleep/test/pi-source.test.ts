import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectScope } from '../src/harvest/project-scope';
import { piFolderMayHold, piSessionFolderSlug } from '../src/sources/pi/session-folder-slug';
import { piSource } from '../src/sources/pi/pi-source';
import { SESSION_SOURCES } from '../src/sources/session-sources';
import { harvestOneSource } from './harvest-one-source';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const FIXTURE_FOLDER = path.join(CLI_TRANSCRIPTS, 'pi/sessions/--home-user-project--');
const FIXTURE_SESSION_ID = '01a22610-3044-7285-8035-6dbd3036ff5a';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'pi-source-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The real CLI's session, where Pi keeps it: the fixture folder lacks the `agent/` level. */
function copyRealSession(): string {
  const folder = path.join(home, 'agent/sessions/--home-user-project--');
  mkdirSync(path.dirname(folder), { recursive: true });
  cpSync(FIXTURE_FOLDER, folder, { recursive: true });
  return path.join(folder, 'session-tool-roundtrip.jsonl');
}

/** A session file of ours, written where Pi would, from lines built from the spec's shapes. */
function writeSession(slug: string, name: string, lines: readonly (object | string)[], modified?: Date): string {
  const folder = path.join(home, 'agent/sessions', slug);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'));
  if (modified !== undefined) utimesSync(file, modified, modified);
  return file;
}

function header(version: number | undefined, cwd = '/home/user/project', id = 'session-of-ours'): object {
  return { type: 'session', ...(version === undefined ? {} : { version }), id, timestamp: '2026-11-29T08:00:00.000Z', cwd };
}

function entry(id: string, parentId: string | null, role: 'user' | 'assistant', content: unknown, second: number): object {
  return { type: 'message', id, parentId, timestamp: `2026-11-29T08:00:${String(second).padStart(2, '0')}.000Z`, message: { role, content } };
}

const harvest = (options: { scope?: readonly string[]; since?: number } = {}) =>
  harvestOneSource(piSource, {
    locations: { piHome: home },
    scope: projectScope(options.scope ?? 'all'),
    ...(options.since === undefined ? {} : { since: options.since }),
  });

describe('the Pi source', () => {
  test('reads the real CLI session: prompt, the visible reply, the bash call once, times from the header and last entry', async () => {
    const file = copyRealSession();
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'pi',
      sessionId: FIXTURE_SESSION_ID,
      project: '/home/user/project',
      task: 'Read task.md and answer',
      startedAt: '2026-11-29T06:48:44.868Z',
      endedAt: '2026-11-29T06:48:44.976Z',
      userTurnCount: 1,
      assistantTurnCount: 2,
      location: file,
    });
    expect(session?.turns).toEqual([
      { role: 'user', text: 'Read task.md and answer', timestamp: '2026-11-29T06:48:44.883Z' },
      { role: 'assistant', text: 'hi', timestamp: '2026-11-29T06:48:44.976Z' },
    ]);
    // The tool result answers the call already counted: one call, by name, no arguments or output.
    expect(session?.toolCalls).toEqual([{ name: 'bash', afterTurn: 0 }]);
    expect(JSON.stringify(session)).not.toContain('cat task.md');
    expect(JSON.stringify(session)).not.toContain('What is 2+2?');
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, sessions: 1, corruptLineCount: 0 });
    expect(report.locations).toEqual([path.join(home, 'agent/sessions')]);
  });

  test('is registered after Claude Code and before OpenCode', () => {
    const ids = SESSION_SOURCES.map((source) => source.id);
    expect(ids.indexOf('pi')).toBeGreaterThan(ids.indexOf('claude-code'));
    expect(ids.indexOf('pi')).toBeLessThan(ids.indexOf('opencode'));
    expect(piSource.name).toBe('Pi');
  });

  test('leaves a slug folder of another project unopened, and opens one that may hold a folder below the scope', async () => {
    copyRealSession();
    const outside = await harvest({ scope: ['/home/user/other'] });
    expect(outside.sessions).toEqual([]);
    expect(outside.report).toMatchObject({ filesFound: 1, filesRead: 0, filesSkippedUnopened: 1 });
    expect(outside.report.skipped['outside-scope']).toBe(1);

    const above = await harvest({ scope: ['/home/user'] });
    expect(above.sessions.map((session) => session.sessionId)).toEqual([FIXTURE_SESSION_ID]);
  });

  test("a slug shared by two folders is only a rule-out: the header cwd decides (fixture of ours, built from the spec's shapes)", async () => {
    // `/home/user-project` and `/home/user/project` share the folder name `--home-user-project--`.
    writeSession('--home-user-project--', 'other.jsonl', [header(3, '/home/user-project', 'other'), entry('a', null, 'user', 'list the files', 1)]);
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesRead: 1, filesSkippedUnopened: 0 });
    expect(report.skipped['outside-scope']).toBe(1);
  });

  test('leaves a file last written before the window unopened', async () => {
    writeSession('--home-user-project--', 'old.jsonl', [header(3), entry('a', null, 'user', 'an old request', 1)], new Date('2026-01-01T00:00:00Z'));
    const { sessions, report } = await harvest({ since: Date.parse('2026-06-01T00:00:00Z') });
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesFound: 1, filesRead: 0, filesSkippedUnopened: 1 });
    expect(report.skipped['outside-window']).toBe(1);
  });

  test("a tree keeps only the active branch, never thinking, and cuts a planted secret (fixture of ours, built from the spec's shapes)", async () => {
    writeSession('--home-user-project--', 'tree.jsonl', [
      header(3),
      { type: 'model_change', id: 'm', parentId: null, timestamp: '2026-11-29T08:00:00.500Z', provider: 'mock', modelId: 'mock-model' },
      entry('a', 'm', 'user', [{ type: 'text', text: 'add a health check endpoint' }], 1),
      entry('b', 'a', 'assistant', [{ type: 'text', text: 'Which framework?' }], 2),
      entry('c', 'b', 'user', 'use the abandoned framework', 3),
      entry('d', 'c', 'assistant', [{ type: 'toolCall', id: 'call-1', name: 'write', arguments: { path: 'abandoned.ts' } }], 4),
      entry('e', 'b', 'user', 'use express, the key is sk-proj-abcdefghijklmnop1234', 5),
      entry(
        'f',
        'e',
        'assistant',
        [
          { type: 'thinking', thinking: 'private chain of thought' },
          { type: 'toolCall', id: 'call-2', name: 'edit', arguments: { path: 'server.ts' } },
          { type: 'text', text: 'Added GET /health.' },
        ],
        6,
      ),
    ]);
    const { sessions } = await harvest();
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', 'add a health check endpoint'],
      ['assistant', 'Which framework?'],
      ['user', 'use express, the key is [redacted]'],
      ['assistant', 'Added GET /health.'],
    ]);
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['edit']);
    expect(session).toMatchObject({ startedAt: '2026-11-29T08:00:00.000Z', endedAt: '2026-11-29T08:00:06.000Z', userTurnCount: 2, assistantTurnCount: 2 });
    const text = JSON.stringify(session);
    for (const absent of ['abandoned', 'chain of thought', 'server.ts', 'sk-proj-']) expect(text).not.toContain(absent);
  });

  test("a linear version-1 history is read in order (fixture of ours, built from the spec's shapes)", async () => {
    writeSession('--home-user-project--', 'linear.jsonl', [
      header(undefined),
      { type: 'message', timestamp: '2026-11-29T08:00:01.000Z', message: { role: 'user', content: 'rename the config loader' } },
      { type: 'message', timestamp: '2026-11-29T08:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed.' }] } },
      {
        type: 'message',
        timestamp: '2026-11-29T08:00:03.000Z',
        message: { role: 'toolResult', toolName: 'read', content: [{ type: 'text', text: 'secret output' }] },
      },
      { type: 'message', timestamp: '2026-11-29T08:00:04.000Z', message: { role: 'user', content: 'thanks, that works' } },
    ]);
    const { sessions } = await harvest();
    const [session] = sessions;
    expect(session?.task).toBe('rename the config loader');
    expect(session?.turns.map((turn) => turn.text)).toEqual(['rename the config loader', 'Renamed.', 'thanks, that works']);
    // A result whose call is not in the conversation still names its tool.
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['read']);
    expect(session?.outcomeSignals).toContainEqual({ kind: 'user-feedback', polarity: 'positive', phrase: 'that works', turn: 2 });
    expect(session?.endedAt).toBe('2026-11-29T08:00:04.000Z');
    expect(JSON.stringify(session)).not.toContain('secret output');
  });

  test("a half-written last line is reported and the rest kept (fixture of ours, built from the spec's shapes)", async () => {
    const file = writeSession('--home-user-project--', 'live.jsonl', [
      header(3),
      entry('a', null, 'user', 'migrate the database schema', 1),
      entry('b', 'a', 'assistant', [{ type: 'text', text: 'Migrated.' }], 2),
      '{"type":"message","id":"c","parentId":"b","timestamp":"2026-11-29T08:00:03.000Z","message":{"role":"user","con',
    ]);
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => session.turns.map((turn) => turn.text))).toEqual([['migrate the database schema', 'Migrated.']]);
    expect(report.corruptLineCount).toBe(1);
    expect(report.corruptLines[0]).toMatchObject({ file, line: 4 });
    expect(report.skipped.malformed).toBe(0);
  });

  test("a broken line with entries after it rejects the session, and the line is reported (fixture of ours, built from the spec's shapes)", async () => {
    const file = writeSession('--home-user-project--', 'damaged.jsonl', [
      header(1),
      { type: 'message', message: { role: 'user', content: 'fix the flaky test' } },
      'not json at all',
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] } },
    ]);
    const { sessions, report } = await harvest();
    expect(sessions).toEqual([]);
    expect(report.skipped.malformed).toBe(1);
    expect(report.corruptLines).toEqual([expect.objectContaining({ file, line: 3 })]);
    expect(report.warnings).toEqual([expect.objectContaining({ path: file, message: expect.stringContaining('line 3') })]);
  });

  test.each([
    ['a forward reference', [header(3), entry('a', 'later', 'user', 'do it', 1), entry('later', null, 'assistant', [], 2)], 'does not come before'],
    ['a self-reference (a cycle)', [header(2), entry('a', 'a', 'user', 'do it', 1)], 'does not come before'],
    ['a repeated id', [header(3), entry('a', null, 'user', 'do it', 1), entry('a', null, 'user', 'again', 2)], 'second entry'],
    ['an entry without an id', [header(3), { type: 'message', parentId: null, message: { role: 'user', content: 'do it' } }], 'without an id'],
    ['an unknown version', [header(4), entry('a', null, 'user', 'do it', 1)], 'version 4'],
    ['a version given as a boolean', [{ ...header(undefined), version: true }, entry('a', null, 'user', 'do it', 1)], 'version true'],
    ['no header', [entry('a', null, 'user', 'do it', 1)], 'not the session header'],
    ['a second header', [header(1), { type: 'message', message: { role: 'user', content: 'do it' } }, header(1)], 'second session header'],
  ])("rejects %s as malformed (fixture of ours, built from the spec's shapes)", async (_name, lines, reason) => {
    const file = writeSession('--home-user-project--', 'bad.jsonl', lines);
    const { sessions, report } = await harvest();
    expect(sessions).toEqual([]);
    expect(report.skipped.malformed).toBe(1);
    expect(report.warnings).toEqual([{ path: file, message: expect.stringContaining(reason) }]);
  });

  test('reads newest first, by mtime', async () => {
    writeSession(
      '--home-user-a--',
      'older.jsonl',
      [header(3, '/home/user/a', 'older'), entry('a', null, 'user', 'first task', 1)],
      new Date('2026-11-01T00:00:00Z'),
    );
    writeSession(
      '--home-user-b--',
      'newer.jsonl',
      [header(3, '/home/user/b', 'newer'), entry('a', null, 'user', 'second task', 1)],
      new Date('2026-11-02T00:00:00Z'),
    );
    const { sessions } = await harvest();
    expect(sessions.map((session) => [session.sessionId, session.project])).toEqual([
      ['newer', '/home/user/b'],
      ['older', '/home/user/a'],
    ]);
  });

  test('a missing sessions folder is looked in quietly, and warned of when the source was asked for', async () => {
    const quiet = await harvest();
    expect(quiet.report.warnings).toEqual([]);
    expect(quiet.report.locations).toEqual([path.join(home, 'agent/sessions')]);
    const asked = await harvestOneSource(piSource, { locations: { piHome: home }, requested: true });
    expect(asked.report.warnings).toEqual([{ path: path.join(home, 'agent/sessions'), message: expect.stringContaining('does not exist') }]);
  });
});

describe('Pi session folder slugs', () => {
  test('are the cwd without its leading separator, separators as dashes, wrapped in --', () => {
    expect(piSessionFolderSlug('/home/user/project')).toBe('--home-user-project--');
    expect(piSessionFolderSlug('C:\\Users\\dev\\app')).toBe('--C--Users-dev-app--');
  });

  test('rule out only folders that cannot hold the project or a folder below it', () => {
    expect(piFolderMayHold('--home-user-project--', ['/home/user/project'])).toBe(true);
    expect(piFolderMayHold('--home-user-project-packages-api--', ['/home/user/project'])).toBe(true);
    expect(piFolderMayHold('--home-user-projects--', ['/home/user/project'])).toBe(false);
    expect(piFolderMayHold('--home-user--', ['/home/user/project'])).toBe(false);
    expect(piFolderMayHold('--anything--', ['/'])).toBe(true);
    expect(piFolderMayHold('my-sessions', ['/home/user/project'])).toBe(true);
  });
});
