import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REDACTED } from '@skillopt/contract';
import { OWN_SESSION_SENTINEL } from '../src/harvest/own-sessions';
import { projectScope } from '../src/harvest/project-scope';
import { codexSource } from '../src/sources/codex/codex-source';
import { SESSION_SOURCES } from '../src/sources/session-sources';
import { harvestOneSource } from './harvest-one-source';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const REAL_ROLLOUT = path.join(CLI_TRANSCRIPTS, 'codex/sessions/YYYY/MM/DD/rollout-tool-roundtrip.jsonl');
const REAL_THREAD_ID = '01a2260e-2a0c-7533-a867-3156d322cfe3';
const DAY = 86_400_000;

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'codex-source-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const harvest = (options: { scope?: readonly string[]; since?: number; requested?: boolean } = {}) =>
  harvestOneSource(codexSource, {
    locations: { codexHome: home },
    ...(options.scope === undefined ? {} : { scope: projectScope(options.scope) }),
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.requested === undefined ? {} : { requested: options.requested }),
  });

function writeRollout(relativePath: string, lines: readonly unknown[], modified?: Date): string {
  const file = path.join(home, relativePath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
  if (modified !== undefined) utimesSync(file, modified, modified);
  return file;
}

/** The date folder of the CLI's layout for a time (the CLI names it by its local date). */
function dateFolder(time: number): string {
  const date = new Date(time);
  const twoDigits = (value: number) => String(value).padStart(2, '0');
  return path.join('sessions', String(date.getFullYear()), twoDigits(date.getMonth() + 1), twoDigits(date.getDate()));
}

// Records in the rollout envelope the real file shows: `{timestamp, type, payload}`.
const envelope = (type: string, timestamp: string, payload: Record<string, unknown>) => ({ timestamp, type, payload });
const sessionMeta = (id: string, timestamp: string, cwd = '/home/user/project', branch?: string) =>
  envelope('session_meta', timestamp, { id, timestamp, cwd, originator: 'codex_cli_rs', ...(branch === undefined ? {} : { git: { branch } }) });
const historyMessage = (role: string, text: string, timestamp: string) =>
  envelope('response_item', timestamp, { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
const userEvent = (message: string, timestamp: string) => envelope('event_msg', timestamp, { type: 'user_message', message, images: [] });
const agentEvent = (message: string, timestamp: string) => envelope('event_msg', timestamp, { type: 'agent_message', message });

/** A short CLI session of ours: prompt and reply, each told by both streams as current versions do. */
function simpleRollout(id: string, task: string, start: number, cwd = '/home/user/project'): unknown[] {
  const at = (offset: number) => new Date(start + offset).toISOString();
  return [
    sessionMeta(id, at(0), cwd),
    historyMessage('user', task, at(1000)),
    userEvent(task, at(1001)),
    agentEvent('done', at(5000)),
    historyMessage('assistant', 'done', at(5001)),
  ];
}

describe('the Codex source on the real CLI’s rollout (shared fixture)', () => {
  test('one session: the thread id, project, task, the reply, exec_command, times — and nothing of the harness or the command', async () => {
    const file = path.join(home, 'sessions', '2026', '11', '29', 'rollout-tool-roundtrip.jsonl');
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(REAL_ROLLOUT, file);
    const { sessions, report } = await harvest();
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, filesSkippedUnopened: 0, corruptLineCount: 0, bytesRead: statSync(REAL_ROLLOUT).size });
    expect(report.locations).toEqual([path.join(home, 'sessions')]);
    expect(sessions).toHaveLength(1);
    const session = sessions[0];
    expect(session).toMatchObject({
      source: 'codex',
      sessionId: REAL_THREAD_ID,
      project: '/home/user/project',
      task: 'Read task.md and answer',
      toolCalls: [{ name: 'exec_command', afterTurn: 0 }],
      startedAt: '2026-11-29T06:46:32.207Z',
      endedAt: '2026-11-29T06:46:32.466Z',
      location: file,
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text, turn.timestamp])).toEqual([
      ['user', 'Read task.md and answer', '2026-11-29T06:46:32.245Z'],
      ['assistant', 'hi', '2026-11-29T06:46:32.459Z'],
    ]);
    // The prompt is told by the history and by an `item_completed` event; the environment block is a user-role message.
    expect(session?.userTurnCount).toBe(1);
    expect(session?.assistantTurnCount).toBe(1);
    const everything = JSON.stringify(session);
    for (const harnessOrTool of ['skills_instructions', 'permissions instructions', 'environment_context', 'cat task.md', 'What is 2+2', 'Chunk ID']) {
      expect(everything).not.toContain(harnessOrTool);
    }
  });

  test('is registered second, after Claude Code', () => {
    expect(SESSION_SOURCES.map((source) => source.id).slice(0, 2)).toEqual(['claude-code', 'codex']);
    expect(codexSource).toMatchObject({ id: 'codex', name: 'Codex' });
  });
});

describe('the Desktop’s archived sessions (fixture of ours, built from the spec’s shapes)', () => {
  const id = '5973b6c0-94b8-487b-a530-2aeb6098ae0b';
  const archivedName = `rollout-2026-11-29T10-00-00-${id}.jsonl`;
  const at = (seconds: number) => new Date(Date.parse('2026-11-29T10:00:00.000Z') + seconds * 1000).toISOString();
  const preamble = '# AGENTS.md instructions for /home/user/desktop-app\n\n<INSTRUCTIONS>\nAlways run PREAMBLE_RULE before committing.\n</INSTRUCTIONS>';
  const prompt = 'make the upload retry on 503, the token is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
  const archived = [
    sessionMeta(id, at(0), '/home/user/desktop-app', 'feature/retry'),
    historyMessage('developer', 'DEVELOPER_MESSAGE: you are running in the Codex app', at(1)),
    historyMessage('system', 'SYSTEM_MESSAGE: sandboxed', at(1)),
    historyMessage('user', preamble, at(2)),
    historyMessage('user', '<environment_context>\n  <cwd>/home/user/desktop-app</cwd>\n</environment_context>', at(2)),
    historyMessage('user', '<codex_internal_context>INTERNAL_CONTEXT</codex_internal_context>', at(2)),
    userEvent(prompt, at(3)),
    historyMessage('user', prompt, at(3)),
    envelope('response_item', at(4), { type: 'function_call', name: 'shell', arguments: '{"command":["ARGUMENT_MARKER"]}', call_id: 'call_1' }),
    envelope('event_msg', at(5), { type: 'exec_command_end', call_id: 'call_1', stdout: 'STDOUT_MARKER', exit_code: 0 }),
    envelope('response_item', at(5), { type: 'function_call_output', call_id: 'call_1', output: 'OUTPUT_MARKER' }),
    envelope('event_msg', at(6), { type: 'patch_apply_end', changes: { 'src/upload.ts': { update: { unified_diff: 'DIFF_MARKER' } } }, success: true }),
    envelope('response_item', at(7), { type: 'web_search_call', status: 'completed', action: { query: 'QUERY_MARKER' } }),
    envelope('response_item', at(8), { type: 'custom_tool_call', name: 'apply_patch', input: 'PATCH_INPUT_MARKER', call_id: 'call_2' }),
    envelope('response_item', at(8), { type: 'custom_tool_call_output', call_id: 'call_2', output: 'PATCH_OUTPUT_MARKER' }),
    historyMessage('assistant', 'Retry added with backoff.', at(9)),
    agentEvent('Retry added with backoff.', at(9)),
    userEvent('thanks, that works', at(10)),
    historyMessage('user', 'thanks, that works', at(10)),
  ];

  test('the spec’s test vector: no developer message, no AGENTS.md preamble, no arguments or outputs; a command is one tool call, by its function’s name', async () => {
    const file = writeRollout(path.join('archived_sessions', archivedName), archived);
    const { sessions, report } = await harvest();
    expect(report.locations).toEqual([path.join(home, 'archived_sessions')]);
    expect(sessions).toHaveLength(1);
    const session = sessions[0];
    expect(session).toMatchObject({
      sessionId: id,
      project: '/home/user/desktop-app',
      gitBranch: 'feature/retry',
      startedAt: at(0),
      endedAt: at(10),
      filesTouched: ['src/upload.ts'],
      location: file,
    });
    // One command: the model's `shell` call and the UI's end event share its call id.
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['shell', 'apply_patch', 'web_search', 'apply_patch']);
    expect(session?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', `make the upload retry on 503, the token is ${REDACTED}`],
      ['assistant', 'Retry added with backoff.'],
      ['user', 'thanks, that works'],
    ]);
    expect(session?.userTurnCount).toBe(2);
    expect(session?.assistantTurnCount).toBe(1);
    expect(session?.outcomeSignals).toContainEqual({ kind: 'user-feedback', polarity: 'positive', phrase: 'that works', turn: 2 });
    const everything = JSON.stringify(session);
    for (const hidden of [
      'DEVELOPER_MESSAGE',
      'SYSTEM_MESSAGE',
      'AGENTS.md',
      'PREAMBLE_RULE',
      'environment_context',
      'INTERNAL_CONTEXT',
      'ARGUMENT_MARKER',
      'STDOUT_MARKER',
      'OUTPUT_MARKER',
      'DIFF_MARKER',
      'QUERY_MARKER',
      'PATCH_INPUT_MARKER',
      'sk-proj-',
    ]) {
      expect(everything).not.toContain(hidden);
    }
  });

  test('the spec’s test vector, event side: an exec_command_end event with no function call of its id is the tool exec_command', async () => {
    writeRollout(path.join('archived_sessions', archivedName), [
      sessionMeta(id, at(0)),
      userEvent('list the files', at(1)),
      envelope('event_msg', at(2), { type: 'exec_command_end', call_id: 'call_9', stdout: 'a b c', exit_code: 0 }),
      agentEvent('three files', at(3)),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.toolCalls).toEqual([{ name: 'exec_command', afterTurn: 0 }]);
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['list the files', 'three files']);
  });

  test('a prompt after the AGENTS.md preamble in the same text is kept, the preamble not', async () => {
    writeRollout(path.join('archived_sessions', archivedName), [
      sessionMeta(id, at(0)),
      historyMessage('user', `${preamble}\n\nrename the config loader`, at(1)),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.task).toBe('rename the config loader');
  });

  test('older preambles (`--- project-doc ---`) are dropped, and text is read from strings, lists and nested content', async () => {
    writeRollout(path.join('archived_sessions', archivedName), [
      sessionMeta(id, at(0)),
      envelope('response_item', at(1), { type: 'message', role: 'user', content: 'Project notes\n--- project-doc ---\nPROJECT_DOC_RULE' }),
      envelope('response_item', at(2), { type: 'message', role: 'user', content: ['split the', 'upload module'] }),
      envelope('response_item', at(3), { type: 'message', role: 'assistant', content: [{ content: [{ text: 'split into two files' }] }] }),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['split the\nupload module', 'split into two files']);
    expect(JSON.stringify(sessions[0])).not.toContain('PROJECT_DOC_RULE');
    expect(sessions[0]?.userTurnCount).toBe(1);
  });

  test('a session in both layouts is read once, from the newest copy', async () => {
    const cliCopy = writeRollout(path.join('sessions', '2026', '11', '29', archivedName), archived, new Date('2026-11-29T10:00:10.000Z'));
    writeRollout(path.join('archived_sessions', archivedName), archived, new Date('2026-11-29T09:00:00.000Z'));
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => session.location)).toEqual([cliCopy]);
    expect(report.filesFound).toBe(1);
    expect(report.filesRead).toBe(1);
    expect(report.locations).toEqual([path.join(home, 'sessions'), path.join(home, 'archived_sessions')]);
  });

  test('a copy whose name does not tell the thread id is matched by its session_meta id', async () => {
    writeRollout(path.join('archived_sessions', archivedName), archived, new Date('2026-11-29T11:00:00.000Z'));
    writeRollout(path.join('sessions', '2026', '11', '29', 'rollout-renamed.jsonl'), archived, new Date('2026-11-29T10:00:10.000Z'));
    const { sessions } = await harvest();
    expect(sessions.map((session) => session.sessionId)).toEqual([id]);
  });
});

describe('records (fixture of ours, built from the spec’s shapes)', () => {
  const start = Date.parse('2026-11-29T10:00:00.000Z');
  const id = '0b9e8f10-1111-4222-8333-444455556666';

  test('a corrupt line is reported with its file and line, and the rest of the file is read', async () => {
    const [meta, ...rest] = simpleRollout(id, 'add a retry to the uploader', start);
    const file = writeRollout(path.join(dateFolder(start), `rollout-x-${id}.jsonl`), [meta, '{"type":"response_item","payload":{', ...rest]);
    const { sessions, report } = await harvest();
    expect(report.corruptLineCount).toBe(1);
    expect(report.corruptLines[0]).toMatchObject({ file, line: 2 });
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['add a retry to the uploader', 'done']);
  });

  test('the same words typed again later are a second prompt, not a mirror', async () => {
    const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
    writeRollout(path.join(dateFolder(start), `rollout-x-${id}.jsonl`), [
      sessionMeta(id, at(0)),
      historyMessage('user', 'run the tests', at(1)),
      userEvent('run the tests', at(1)),
      agentEvent('2 failing', at(2)),
      historyMessage('assistant', '2 failing', at(2)),
      historyMessage('user', 'run the tests', at(3)),
      userEvent('run the tests', at(3)),
      agentEvent('all green', at(4)),
      historyMessage('assistant', 'all green', at(4)),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.userTurnCount).toBe(2);
    expect(sessions[0]?.assistantTurnCount).toBe(2);
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['run the tests', '2 failing', 'run the tests', 'all green']);
  });

  test('rollouts of the oldest versions, items without the envelope, are read too', async () => {
    writeRollout(path.join('sessions', `rollout-2025-04-01T10-00-00-${id}.jsonl`), [
      { id, timestamp: '2025-04-01T10:00:00.000Z', instructions: null },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'port the parser to rust' }] },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ported' }] },
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]).toMatchObject({ sessionId: id, task: 'port the parser to rust', toolCalls: [{ name: 'shell', afterTurn: 0 }] });
  });

  test('an error event becomes a turn-error signal', async () => {
    writeRollout(path.join(dateFolder(start), `rollout-x-${id}.jsonl`), [
      ...simpleRollout(id, 'deploy the preview', start),
      envelope('event_msg', new Date(start + 6000).toISOString(), { type: 'error', message: 'stream disconnected before completion' }),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.outcomeSignals).toContainEqual({ kind: 'turn-error', detail: 'stream disconnected before completion' });
  });

  test('a session whose first prompt opens with the own-session sentinel is dropped and counted', async () => {
    writeRollout(path.join(dateFolder(start), `rollout-x-${id}.jsonl`), simpleRollout(id, `${OWN_SESSION_SENTINEL}\nreplay this task`, start));
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(0);
    expect(report.skipped['own-session']).toBe(1);
  });

  test('a session in /home/user is outside the scope /home/user/project; one below it is inside', async () => {
    writeRollout(path.join(dateFolder(start), `rollout-a-${id}.jsonl`), simpleRollout(id, 'tidy my dotfiles', start, '/home/user'));
    const other = 'aaaaaaaa-1111-4222-8333-444455556666';
    writeRollout(path.join(dateFolder(start), `rollout-b-${other}.jsonl`), simpleRollout(other, 'fix the sub package', start, '/home/user/project/sub'));
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions.map((session) => session.project)).toEqual(['/home/user/project/sub']);
    expect(report.skipped['outside-scope']).toBe(1);
  });
});

describe('the window over the date folders (fixture of ours, built from the spec’s shapes)', () => {
  test('a one-day lookback over a year of folders opens only the files written in that day', async () => {
    const now = Date.now();
    const recent: string[] = [];
    for (let day = 0; day < 365; day += 1) {
      const id = `00000000-0000-4000-8000-${String(day).padStart(12, '0')}`;
      const written = now - day * DAY - 3_600_000;
      const file = writeRollout(
        path.join(dateFolder(written), `rollout-${day}-${id}.jsonl`),
        simpleRollout(id, `work of day ${day}`, written - 60_000),
        new Date(written),
      );
      if (day === 0) recent.push(file);
    }
    const { sessions, report } = await harvest({ since: now - DAY });
    expect(sessions.map((session) => session.location)).toEqual(recent);
    expect(sessions[0]?.task).toBe('work of day 0');
    expect(report).toMatchObject({ filesFound: 365, filesRead: 1, filesSkippedUnopened: 364 });
    expect(report.skipped['outside-window']).toBe(364);
  });

  test('a session resumed today, in the folder of the day it began, is read (codex resume appends to the old rollout)', async () => {
    const now = Date.now();
    const began = now - 200 * DAY;
    const id = 'bbbbbbbb-1111-4222-8333-444455556666';
    const resumed = now - 2 * 3_600_000;
    writeRollout(
      path.join(dateFolder(began), `rollout-resumed-${id}.jsonl`),
      [...simpleRollout(id, 'start the migration', began), historyMessage('user', 'carry on with the migration', new Date(resumed).toISOString())],
      new Date(resumed),
    );
    const untouched = 'cccccccc-1111-4222-8333-444455556666';
    writeRollout(path.join(dateFolder(began), `rollout-old-${untouched}.jsonl`), simpleRollout(untouched, 'old work', began), new Date(began + 60_000));
    const { sessions, report } = await harvest({ since: now - DAY });
    expect(sessions.map((session) => session.task)).toEqual(['start the migration']);
    expect(sessions[0]?.endedAt).toBe(new Date(resumed).toISOString());
    expect(report).toMatchObject({ filesRead: 1, filesSkippedUnopened: 1 });
  });

  test('a file written in the window holding only older turns is read, then counted outside the window (times compared as numbers)', async () => {
    const now = Date.now();
    const id = 'dddddddd-1111-4222-8333-444455556666';
    // Written in the window but ending before its start, in a zone east of UTC: the original's string comparison got this wrong.
    const ended = now - 2 * DAY;
    const lines = simpleRollout(id, 'old work', ended - 10_000).map((line) => {
      const record = line as { timestamp: string; payload: { timestamp?: string } };
      const eastOfUtc = new Date(Date.parse(record.timestamp) + 9 * 3_600_000).toISOString().replace('Z', '+09:00');
      return { ...record, timestamp: eastOfUtc, payload: { ...record.payload, ...(record.payload.timestamp === undefined ? {} : { timestamp: eastOfUtc }) } };
    });
    writeRollout(path.join(dateFolder(ended), `rollout-x-${id}.jsonl`), lines, new Date(now));
    const { sessions, report } = await harvest({ since: now - DAY });
    expect(sessions).toHaveLength(0);
    expect(report.filesRead).toBe(1);
    expect(report.skipped['outside-window']).toBe(1);
  });

  test('sessions come newest first across both layouts, by the file’s last write', async () => {
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
    writeRollout(path.join(dateFolder(base), `rollout-m-${ids[0]}.jsonl`), simpleRollout(ids[0] as string, 'middle', base), new Date(base + 2 * DAY));
    writeRollout(path.join('archived_sessions', `rollout-n-${ids[1]}.jsonl`), simpleRollout(ids[1] as string, 'newest', base), new Date(base + 3 * DAY));
    writeRollout(path.join(dateFolder(base), `rollout-o-${ids[2]}.jsonl`), simpleRollout(ids[2] as string, 'oldest', base), new Date(base + DAY));
    const { sessions } = await harvest();
    expect(sessions.map((session) => session.task)).toEqual(['newest', 'middle', 'oldest']);
  });

  test('missing layouts are looked in quietly, and warned of when the source was asked for', async () => {
    const quiet = await harvest();
    expect(quiet.report.locations).toEqual([path.join(home, 'sessions'), path.join(home, 'archived_sessions')]);
    expect(quiet.report.warnings).toEqual([]);
    const asked = await harvest({ requested: true });
    expect(asked.report.warnings.map((warning) => warning.path)).toEqual([path.join(home, 'sessions'), path.join(home, 'archived_sessions')]);
  });
});
