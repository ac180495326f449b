import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectScope } from '../src/harvest/project-scope';
import { cursorSource } from '../src/sources/cursor/cursor-source';
import { userQueryOf } from '../src/sources/cursor/transcript-record';
import { cursorWorkspaceSlug } from '../src/sources/cursor/workspace-slug';
import { SESSION_SOURCES } from '../src/sources/session-sources';
import { harvestOneSource } from './harvest-one-source';

// No Cursor transcript was captured from the real CLI: every transcript here is ours, built from
// the shapes upstream-sleep §2.5 describes (role on the record or its message, text blocks wrapped
// in `<user_query>`, `tool_use` blocks, `turn_ended` records, no times).

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'cursor-source-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const MODIFIED = new Date('2026-11-29T09:30:00.000Z');

function workspace(slug: string, workspacePath?: string): string {
  const folder = path.join(home, 'projects', slug);
  mkdirSync(path.join(folder, 'agent-transcripts'), { recursive: true });
  if (workspacePath !== undefined) writeFileSync(path.join(folder, '.workspace-trusted'), JSON.stringify({ trustedAt: '2026-11-01T00:00:00Z', workspacePath }));
  return folder;
}

function transcript(workspaceFolder: string, session: string, lines: readonly (object | string)[], modified: Date = MODIFIED): string {
  const folder = path.join(workspaceFolder, 'agent-transcripts', session);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${session}.jsonl`);
  writeFileSync(file, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
  utimesSync(file, modified, modified);
  return file;
}

const user = (text: string) => ({ role: 'user', message: { content: [{ type: 'text', text }] } });
const wrapped = (query: string) =>
  user(`<user_info>\nOS Version: linux 6.8\nWorkspace Path: /home/user/project\n</user_info>\n<user_query>\n${query}\n</user_query>`);
const assistant = (content: unknown[]) => ({ role: 'assistant', message: { content } });

const harvest = (options: { scope?: readonly string[]; since?: number } = {}) =>
  harvestOneSource(cursorSource, {
    locations: { cursorHome: home },
    scope: projectScope(options.scope ?? 'all'),
    ...(options.since === undefined ? {} : { since: options.since }),
  });

describe('the Cursor source', () => {
  test("reads a session: the query out of its wrapper, secrets cut, tools by name, errored turns, the end from the mtime (fixture of ours, built from the spec's shapes)", async () => {
    const folder = workspace('home-user-project', '/home/user/project');
    const file = transcript(folder, 'f1c0ffee-0000-4000-8000-000000000001', [
      user('<user_info>\nOS Version: linux 6.8\n</user_info>\n<user_query>\nfix the failing login test, token=local-secret</user_query>'),
      assistant([
        { type: 'text', text: 'Running the tests.' },
        { type: 'tool_use', name: 'Shell', input: { command: 'npm test -- --grep login' } },
      ]),
      { type: 'turn_ended', status: 'error', error: 'the model stopped: OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 rejected' },
      '42',
      '{"role":"user","message":{"content":[{"type":"text","text":"cut sho',
      wrapped('still broken, the key is sk-proj-abcdefghijklmnop1234'),
      assistant([
        { type: 'tool_use', name: 'Edit File', input: { path: 'login.spec.ts' } },
        { type: 'text', text: 'Fixed the selector in the login test.' },
      ]),
      { type: 'turn_ended', status: 'success' },
    ]);
    // A subagent's transcript below the session folder is the agent's helper, not the session.
    mkdirSync(path.join(path.dirname(file), 'subagents'));
    writeFileSync(path.join(path.dirname(file), 'subagents', 'helper.jsonl'), `${JSON.stringify(user('<user_query>\nsubagent chatter\n</user_query>'))}\n`);

    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'cursor',
      sessionId: 'f1c0ffee-0000-4000-8000-000000000001',
      project: '/home/user/project',
      task: 'fix the failing login test, token=[redacted]',
      startedAt: MODIFIED.toISOString(),
      endedAt: MODIFIED.toISOString(),
      userTurnCount: 2,
      assistantTurnCount: 2,
      location: file,
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', 'fix the failing login test, token=[redacted]'],
      ['assistant', 'Running the tests.'],
      ['user', 'still broken, the key is [redacted]'],
      ['assistant', 'Fixed the selector in the login test.'],
    ]);
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['Shell', 'EditFile']);
    expect(session?.outcomeSignals).toContainEqual({ kind: 'turn-error', detail: 'the model stopped: OPENAI_API_KEY=[redacted] rejected' });
    expect(session?.outcomeSignals).toContainEqual(expect.objectContaining({ kind: 'user-feedback', polarity: 'negative', phrase: 'still broken', turn: 2 }));
    const text = JSON.stringify(session);
    for (const absent of ['user_info', 'OS Version', 'npm test', 'login.spec.ts', 'subagent chatter', 'local-secret', 'sk-proj-'])
      expect(text).not.toContain(absent);
    // Malformed JSON is reported with its file and line; a line that is JSON but no record is passed over.
    expect(report.corruptLines).toEqual([expect.objectContaining({ file, line: 5 })]);
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, sessions: 1 });
  });

  test('is registered after Claude Code and before Pi', () => {
    const ids = SESSION_SOURCES.map((source) => source.id);
    expect(ids.indexOf('cursor')).toBeGreaterThan(ids.indexOf('claude-code'));
    expect(ids.indexOf('cursor')).toBeLessThan(ids.indexOf('pi'));
    expect(cursorSource.name).toBe('Cursor');
  });

  test("a workspace outside the scope is left unopened, by the folder its workspace file names (fixture of ours, built from the spec's shapes)", async () => {
    // The slug says `home-user-project`, the workspace file says otherwise: the file decides.
    transcript(workspace('home-user-project', '/home/user/other'), 's1', [wrapped('tidy the imports')]);
    transcript(workspace('home-user-project-api', '/home/user/project/api'), 's2', [wrapped('add a route')]);
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions.map((session) => [session.sessionId, session.project, session.task])).toEqual([['s2', '/home/user/project/api', 'add a route']]);
    expect(report).toMatchObject({ filesFound: 2, filesRead: 1, filesSkippedUnopened: 1 });
    expect(report.skipped['outside-scope']).toBe(1);
  });

  test("without a workspace file, a slug is the scope project whose slug it is, and any other is left unopened (fixture of ours, built from the spec's shapes)", async () => {
    transcript(workspace(cursorWorkspaceSlug('/home/user/project')), 'mine', [wrapped('bump the version')]);
    transcript(workspace('home-user-elsewhere'), 'theirs', [wrapped('not this one')]);
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions.map((session) => [session.sessionId, session.project])).toEqual([['mine', '/home/user/project']]);
    expect(report.skipped['outside-scope']).toBe(1);
    expect(report.filesSkippedUnopened).toBe(1);
  });

  test("a transcript last written before the window is left unopened (fixture of ours, built from the spec's shapes)", async () => {
    const folder = workspace('home-user-project', '/home/user/project');
    transcript(folder, 'old', [wrapped('an old request')], new Date('2026-01-01T00:00:00Z'));
    transcript(folder, 'new', [wrapped('a new request')], new Date('2026-11-29T00:00:00Z'));
    const { sessions, report } = await harvest({ since: Date.parse('2026-06-01T00:00:00Z') });
    expect(sessions.map((session) => [session.sessionId, session.endedAt])).toEqual([['new', '2026-11-29T00:00:00.000Z']]);
    expect(report.skipped['outside-window']).toBe(1);
    expect(report.filesSkippedUnopened).toBe(1);
  });

  test("Sleep's own replays, sentinel on the first prompt or a later one, are passed over (fixture of ours, built from the spec's shapes)", async () => {
    const folder = workspace('home-user-project', '/home/user/project');
    transcript(folder, 'replay-first', [wrapped('<skillopt_sleep_internal_replay_v1>\nrename the helper'), assistant([{ type: 'text', text: 'Renamed.' }])]);
    transcript(folder, 'replay-later', [
      wrapped('rename the helper'),
      assistant([{ type: 'text', text: 'Renamed.' }]),
      wrapped('<skillopt_sleep_internal_replay_v1>\nagain'),
    ]);
    const { sessions, report } = await harvest();
    expect(sessions).toEqual([]);
    expect(report.skipped['own-session']).toBe(2);
  });

  test('a missing projects folder is looked in quietly, and warned of when the source was asked for', async () => {
    const quiet = await harvest();
    expect(quiet.report.warnings).toEqual([]);
    expect(quiet.report.locations).toEqual([path.join(home, 'projects')]);
    const asked = await harvestOneSource(cursorSource, { locations: { cursorHome: home }, requested: true });
    expect(asked.report.warnings).toEqual([{ path: path.join(home, 'projects'), message: expect.stringContaining('does not exist') }]);
  });
});

describe('Cursor prompts and slugs', () => {
  test('the request is the last <user_query> block when the text ends with one, else the whole text', () => {
    expect(userQueryOf('<user_info>x</user_info>\n<user_query>first</user_query>\n<user_query>\n second \n</user_query>\n')).toBe('second');
    expect(userQueryOf('plain request')).toBe('plain request');
    expect(userQueryOf('<user_query>quoted</user_query> and more')).toBe('<user_query>quoted</user_query> and more');
    expect(userQueryOf('no\0nul</user_query>')).toBe('nonul</user_query>');
  });

  test('a slug is the path with runs of other characters as one dash, trimmed', () => {
    expect(cursorWorkspaceSlug('/home/user/project')).toBe('home-user-project');
    expect(cursorWorkspaceSlug('/home/user/my_app (copy)/')).toBe('home-user-my-app-copy');
  });
});
