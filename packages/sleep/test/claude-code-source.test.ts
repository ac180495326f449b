import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { harvestSessions, type HarvestedSession, OWN_SESSION_SENTINEL, projectScope, type SourceReport } from '../src/index.js';
import { claudeCodeSource } from '../src/sources/claude-code/claude-code-source.js';
import { SESSION_SOURCES } from '../src/sources/session-sources.js';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

const FIXTURE_PROJECTS = path.join(CLI_TRANSCRIPTS, 'claude/projects');

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'claude-code-source-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

interface Harvested {
  sessions: HarvestedSession[];
  report: SourceReport;
}

async function harvest(options: { scope?: readonly string[]; since?: number; requested?: boolean } = {}): Promise<Harvested> {
  const harvest = harvestSessions({
    sources: [claudeCodeSource],
    sourcesRequested: options.requested ?? false,
    scope: projectScope(options.scope ?? 'all'),
    windowFor: () => (options.since === undefined ? {} : { explicitStart: options.since }),
    locations: { claudeHome: home, sessionEndLog: path.join(home, 'session-ends.jsonl') },
    environment: {},
  });
  const sessions: HarvestedSession[] = [];
  for await (const session of harvest.sessions) sessions.push(session);
  return { sessions, report: harvest.reports[0] as SourceReport };
}

const SESSION = 'c0ffee00-0000-4000-8000-000000000001';

/** A user prompt in the real record layout (keys in the order Claude Code 2.1 writes them). */
function prompt(text: string, timestamp: string, cwd = '/home/user/project'): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    promptId: 'p-1',
    type: 'user',
    message: { role: 'user', content: text },
    uuid: 'u-1',
    timestamp,
    cwd,
    sessionId: SESSION,
    version: '2.1.197',
    gitBranch: 'main',
  });
}

function assistant(content: unknown[], timestamp: string): string {
  return JSON.stringify({
    parentUuid: 'u-1',
    isSidechain: false,
    message: { id: 'msg-1', type: 'message', role: 'assistant', content },
    type: 'assistant',
    uuid: 'a-1',
    timestamp,
    cwd: '/home/user/project',
    sessionId: SESSION,
  });
}

/** A tool result as Claude Code writes it: the output twice, in the block and in `toolUseResult`. */
function toolResult(output: string, timestamp: string): string {
  return JSON.stringify({
    parentUuid: 'a-1',
    isSidechain: false,
    promptId: 'p-1',
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: 'toolu-1', type: 'tool_result', content: output, is_error: false }] },
    uuid: 'r-1',
    timestamp,
    toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
    sourceToolAssistantUUID: 'a-1',
    cwd: '/home/user/project',
    sessionId: SESSION,
  });
}

function writeSession(slug: string, name: string, lines: string[], modified?: Date): string {
  const folder = path.join(home, 'projects', slug);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  if (modified !== undefined) utimesSync(file, modified, modified);
  return file;
}

const simpleSession = (text = 'fix the failing build', cwd = '/home/user/project') => [
  prompt(text, '2026-11-29T10:00:00.000Z', cwd),
  assistant([{ type: 'text', text: 'done' }], '2026-11-29T10:00:05.000Z'),
];

describe('the Claude Code source on the real CLI’s transcripts (shared fixtures)', () => {
  test('reads both sessions: task, turns, the Bash call, times, project, source and location', async () => {
    cpSync(FIXTURE_PROJECTS, path.join(home, 'projects'), { recursive: true });
    const { sessions, report } = await harvest();
    expect(report.filesFound).toBe(2);
    expect(report.filesRead).toBe(2);
    expect(report.corruptLineCount).toBe(0);
    const byTask = new Map(sessions.map((session) => [session.task, session]));
    const roundtrip = byTask.get('Read task.md and answer');
    const hi = byTask.get('say hi');
    expect(roundtrip).toMatchObject({
      source: 'claude-code',
      sessionId: 'session-tool-roundtrip',
      project: '/home/user/project',
      gitBranch: 'HEAD',
      startedAt: '2026-11-29T06:48:50.045Z',
      toolCalls: [{ name: 'Bash', afterTurn: 0 }],
      userTurnCount: 1,
      assistantTurnCount: 2,
      location: path.join(home, 'projects', '-home-user-project', 'session-tool-roundtrip.jsonl'),
    });
    expect(roundtrip?.turns.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', 'Read task.md and answer'],
      ['assistant', 'hi'],
    ]);
    expect(roundtrip?.turns[0]?.timestamp).toBe('2026-11-29T06:48:50.117Z');
    expect(Date.parse(roundtrip?.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse('2026-11-29T06:48:50.202Z'));
    expect(hi).toMatchObject({ project: '/home/user/project', toolCalls: [], userTurnCount: 1, assistantTurnCount: 1, startedAt: '2026-11-29T06:43:30.042Z' });
    expect(hi?.turns.map((turn) => turn.text)).toEqual(['say hi', 'hi']);
  });

  test('is registered first among the sources', () => {
    expect(SESSION_SOURCES[0]).toBe(claudeCodeSource);
    expect(claudeCodeSource).toMatchObject({ id: 'claude-code', name: 'Claude Code' });
  });
});

describe('the fast path over tool results (fixture of ours, built from the spec’s shapes)', () => {
  test('a tool-result line is not parsed: a tail that is not JSON is not reported, yet its time counts', async () => {
    const broken = `${toolResult('x'.repeat(1000), '2026-11-29T11:30:00.000Z').slice(0, -1)} this is not JSON`;
    writeSession('-home-user-project', 'a.jsonl', [...simpleSession(), broken]);
    const { sessions, report } = await harvest();
    expect(report.corruptLineCount).toBe(0);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.endedAt).toBe('2026-11-29T11:30:00.000Z');
    expect(sessions[0]?.userTurnCount).toBe(1);
  });

  test('a tool-result line larger than the reader would ever gather streams past (72 MB, over the 64 MiB line limit)', async () => {
    const folder = path.join(home, 'projects', '-home-user-project');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'big.jsonl');
    const descriptor = openSync(file, 'w');
    writeSync(descriptor, `${simpleSession().join('\n')}\n`);
    const head = toolResult('OUTPUT', '2026-11-29T12:00:00.000Z');
    const [before, after] = head.split('OUTPUT') as [string, string];
    const [middle, tail] = after.split('OUTPUT') as [string, string];
    const block = Buffer.alloc(1 << 20, 'y');
    writeSync(descriptor, before);
    for (let index = 0; index < 36; index += 1) writeSync(descriptor, block);
    writeSync(descriptor, middle);
    for (let index = 0; index < 36; index += 1) writeSync(descriptor, block);
    writeSync(descriptor, `${tail}\n`);
    writeSync(descriptor, `${assistant([{ type: 'text', text: 'all green' }], '2026-11-29T12:00:01.000Z')}\n`);
    closeSync(descriptor);
    const { sessions, report } = await harvest();
    expect(report.bytesRead).toBeGreaterThan(72 << 20);
    expect(report.corruptLineCount).toBe(0);
    expect(sessions[0]?.endedAt).toBe('2026-11-29T12:00:01.000Z');
    expect(sessions[0]?.turns.at(-1)?.text).toBe('all green');
  });

  test('sidechain records (inline subagent chatter) add nothing, their time neither', async () => {
    const sidechainPrompt = prompt('subagent: search the repo', '2026-11-30T09:00:00.000Z').replace('"isSidechain":false', '"isSidechain":true');
    const sidechainResult = toolResult('found it', '2026-11-30T09:00:01.000Z').replace('"isSidechain":false', '"isSidechain":true');
    writeSession('-home-user-project', 'a.jsonl', [...simpleSession(), sidechainPrompt, sidechainResult]);
    const { sessions } = await harvest();
    expect(sessions[0]?.userTurnCount).toBe(1);
    expect(sessions[0]?.endedAt).toBe('2026-11-29T10:00:05.000Z');
  });
});

describe('records (fixture of ours, built from the spec’s shapes)', () => {
  test('a corrupt line is reported with its file and line, and the rest of the file is read', async () => {
    const file = writeSession('-home-user-project', 'a.jsonl', [
      prompt('add a retry to the uploader', '2026-11-29T10:00:00.000Z'),
      '{"type":"assistant","message":{',
      assistant([{ type: 'text', text: 'retry added' }], '2026-11-29T10:01:00.000Z'),
    ]);
    const { sessions, report } = await harvest();
    expect(report.corruptLineCount).toBe(1);
    expect(report.corruptLines[0]).toMatchObject({ file, line: 2 });
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['add a retry to the uploader', 'retry added']);
  });

  test('secrets in a prompt are cut out (the original did not redact Claude Code, upstream-sleep §9 item 5)', async () => {
    writeSession('-home-user-project', 'a.jsonl', simpleSession('deploy with key sk-ant-api03-abcdefghijklmnop1234 and AKIAABCDEFGHIJKLMNOP'));
    const { sessions } = await harvest();
    expect(sessions[0]?.task).not.toContain('sk-ant-api03-abcdefghijklmnop1234');
    expect(sessions[0]?.task).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(sessions[0]?.task).toContain('deploy with key');
  });

  test('a session whose first prompt opens with the own-session sentinel is dropped and counted', async () => {
    writeSession('-home-user-project', 'a.jsonl', simpleSession(`${OWN_SESSION_SENTINEL}\nreplay this task`));
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(0);
    expect(report.skipped['own-session']).toBe(1);
  });

  test('tool names, the Skill tool’s skill, and the files of a file-history snapshot', async () => {
    const snapshot = JSON.stringify({
      type: 'file-history-snapshot',
      messageId: 'm-1',
      snapshot: { messageId: 'm-1', trackedFileBackups: { 'src/a.ts': { version: 1 }, 'src/b.ts': { version: 2 } }, timestamp: '2026-11-29T10:00:02.000Z' },
      isSnapshotUpdate: false,
    });
    writeSession('-home-user-project', 'a.jsonl', [
      prompt('refactor the parser', '2026-11-29T10:00:00.000Z'),
      snapshot,
      assistant(
        [
          { type: 'tool_use', id: 't1', name: 'Skill', input: { skill: 'refactoring' } },
          { type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: 'src/a.ts' } },
        ],
        '2026-11-29T10:00:03.000Z',
      ),
    ]);
    const { sessions } = await harvest();
    expect(sessions[0]?.toolCalls.map((call) => call.name)).toEqual(['Skill', 'Edit']);
    expect(sessions[0]?.skillsUsed).toEqual(['refactoring']);
    expect(sessions[0]?.filesTouched).toEqual(['src/a.ts', 'src/b.ts']);
  });
});

describe('extended thinking (fixture of ours, built from the spec’s shapes)', () => {
  test('a thinking block is cut before parsing: its reasoning is in no record, while the reply, tool call and times are', async () => {
    const thinking = { type: 'thinking', thinking: 'Maybe "sk-proj-thinking0123456789" \\ is the key', signature: 'S'.repeat(500) };
    writeSession('-home-user-project', 'a.jsonl', [
      prompt('make the build pass', '2026-11-29T10:00:00.000Z'),
      assistant(
        [thinking, { type: 'text', text: 'Running the build.' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }],
        '2026-11-29T10:00:04.000Z',
      ),
      toolResult('ok', '2026-11-29T10:00:06.000Z'),
      assistant([thinking], '2026-11-29T10:00:07.000Z'),
      assistant([{ type: 'text', text: 'The build passes.' }], '2026-11-29T10:00:09.000Z'),
    ]);
    const { sessions, report } = await harvest();
    expect(report.corruptLineCount).toBe(0);
    const [session] = sessions;
    expect(session?.turns.map((turn) => turn.text)).toEqual(['make the build pass', 'The build passes.']);
    expect(session?.toolCalls.map((call) => call.name)).toEqual(['Bash']);
    expect(session?.assistantTurnCount).toBe(3);
    expect(session?.endedAt).toBe('2026-11-29T10:00:09.000Z');
    expect(JSON.stringify(session)).not.toContain('sk-proj-thinking');
  });
});

describe('scope, window and layout before a file is opened (fixture of ours, built from the spec’s shapes)', () => {
  test('a session in /home/user is not in the scope /home/user/project; one in /home/user/project/sub is', async () => {
    writeSession('-home-user', 'home.jsonl', simpleSession('tidy my dotfiles', '/home/user'));
    writeSession('-home-user-project-sub', 'sub.jsonl', simpleSession('fix the sub package', '/home/user/project/sub'));
    const { sessions } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions.map((session) => session.project)).toEqual(['/home/user/project/sub']);
  });

  test('a session in /home/user kept under the project’s own slug folder is still judged by its cwd', async () => {
    writeSession('-home-user-project', 'home.jsonl', simpleSession('tidy my dotfiles', '/home/user'));
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions).toHaveLength(0);
    expect(report.filesRead).toBe(1);
    expect(report.skipped['outside-scope']).toBe(1);
  });

  test('the slug folder of another project is not opened', async () => {
    writeSession('-home-user-project', 'mine.jsonl', simpleSession());
    const inScopeOnly = await harvest({ scope: ['/home/user/project'] });
    writeSession('-home-user-other', 'theirs-1.jsonl', simpleSession('other work', '/home/user/other'));
    writeSession('-home-user-other', 'theirs-2.jsonl', simpleSession('more other work', '/home/user/other'));
    const { sessions, report } = await harvest({ scope: ['/home/user/project'] });
    expect(sessions).toHaveLength(1);
    expect(report.filesFound).toBe(3);
    expect(report.filesRead).toBe(1);
    expect(report.filesSkippedUnopened).toBe(2);
    expect(report.skipped['outside-scope']).toBe(2);
    expect(report.bytesRead).toBe(inScopeOnly.report.bytesRead);
  });

  test('a file last written before the window’s start is not opened', async () => {
    const now = Date.now();
    const old = new Date(now - 30 * 86_400_000);
    writeSession('-home-user-project', 'old.jsonl', simpleSession('old work'), old);
    const recent = writeSession('-home-user-project', 'recent.jsonl', [
      prompt('recent work', new Date(now - 3_600_000).toISOString()),
      assistant([{ type: 'text', text: 'ok' }], new Date(now - 3_500_000).toISOString()),
    ]);
    const { sessions, report } = await harvest({ since: now - 86_400_000 });
    expect(sessions.map((session) => session.location)).toEqual([recent]);
    expect(report.filesSkippedUnopened).toBe(1);
    expect(report.skipped['outside-window']).toBe(1);
    expect(report.filesRead).toBe(1);
  });

  test('subagents/ folders and agent-*.jsonl files are not sessions', async () => {
    writeSession('-home-user-project', 'main.jsonl', simpleSession());
    writeSession('-home-user-project', 'agent-a1b2.jsonl', simpleSession('subagent task'));
    writeSession(path.join('-home-user-project', SESSION, 'subagents'), 'helper.jsonl', simpleSession('nested subagent task'));
    const { sessions, report } = await harvest();
    expect(report.filesFound).toBe(1);
    expect(sessions.map((session) => session.task)).toEqual(['fix the failing build']);
  });

  test('sessions come newest first, by the file’s last write', async () => {
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    writeSession('-home-user-project', 'middle.jsonl', simpleSession('middle'), new Date(base + 2 * 86_400_000));
    writeSession('-home-user-other', 'newest.jsonl', simpleSession('newest', '/home/user/other'), new Date(base + 3 * 86_400_000));
    writeSession('-home-user-project', 'oldest.jsonl', simpleSession('oldest'), new Date(base + 86_400_000));
    const { sessions } = await harvest();
    expect(sessions.map((session) => session.task)).toEqual(['newest', 'middle', 'oldest']);
  });

  test('a missing projects folder is looked in quietly, and warned of when the source was asked for', async () => {
    const quiet = await harvest();
    expect(quiet.report.locations).toEqual([path.join(home, 'projects')]);
    expect(quiet.report.warnings).toEqual([]);
    const asked = await harvest({ requested: true });
    expect(asked.report.warnings).toHaveLength(1);
    expect(asked.report.warnings[0]?.path).toBe(path.join(home, 'projects'));
  });
});
