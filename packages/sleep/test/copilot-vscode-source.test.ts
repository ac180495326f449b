import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REDACTED } from '@skillopt/contract';
import { projectScope } from '../src/harvest/project-scope';
import { copilotVscodeSource } from '../src/sources/copilot-vscode/copilot-vscode-source';
import { applyOperation, replayOperationLog } from '../src/sources/copilot-vscode/operation-log';
import { fileUriToPath, workspaceFolderOf } from '../src/sources/copilot-vscode/workspace-folder';
import { harvestOneSource } from './harvest-one-source';
import { ORIGINAL_SKILLOPT_FIXTURES } from '../../../testdata/paths';

const FIXTURE_FOLDER = path.join(ORIGINAL_SKILLOPT_FIXTURES, 'tests/fixtures/copilot');

let storage: string;
beforeEach(() => {
  storage = mkdtempSync(path.join(os.tmpdir(), 'sleep-copilot-vscode-'));
});
afterEach(() => {
  rmSync(storage, { recursive: true, force: true });
});

/** The original's fixture laid out as VS Code does: `<storage>/<workspace>/workspace.json` and `chatSessions/`. */
function copyFixture(root = path.join(storage, 'stable'), workspace = 'workspace-1'): string {
  const folder = path.join(root, workspace);
  mkdirSync(path.join(folder, 'chatSessions'), { recursive: true });
  cpSync(path.join(FIXTURE_FOLDER, 'workspace.json'), path.join(folder, 'workspace.json'));
  const file = path.join(folder, 'chatSessions', 'session-v3.jsonl');
  cpSync(path.join(FIXTURE_FOLDER, 'session-v3.jsonl'), file);
  return file;
}

/** A chat session of ours, built from the spec's shapes: one snapshot line holding its requests. */
function writeChatSession(root: string, workspace: string, folderUri: string | undefined, name: string, requests: readonly object[]): string {
  const folder = path.join(root, workspace);
  mkdirSync(path.join(folder, 'chatSessions'), { recursive: true });
  if (folderUri !== undefined) writeFileSync(path.join(folder, 'workspace.json'), JSON.stringify({ folder: folderUri }));
  const file = path.join(folder, 'chatSessions', `${name}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ kind: 0, v: { version: 3, creationDate: 1_800_000_000_000, sessionId: name, requests } })}\n`);
  return file;
}

function request(text: string, extra: Record<string, unknown> = {}): object {
  return {
    timestamp: 1_800_000_001_000,
    agent: { extensionId: 'GitHub.copilot-chat' },
    message: { text },
    response: [{ value: `answer to ${text}` }],
    modelState: { completedAt: 1_800_000_002_000 },
    ...extra,
  };
}

function harvest(options: { roots?: string[]; scope?: readonly string[]; since?: number; requested?: boolean } = {}) {
  return harvestOneSource(copilotVscodeSource, {
    locations: { vscodeWorkspaceStorage: options.roots ?? [path.join(storage, 'stable')] },
    requested: options.requested ?? false,
    scope: projectScope(options.scope ?? 'all'),
    ...(options.since === undefined ? {} : { since: options.since }),
  });
}

describe('the VS Code Copilot Chat source', () => {
  it('replays the original’s operation-log fixture into the spec’s digest (shared fixture)', async () => {
    const file = copyFixture();
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'copilot-vscode',
      sessionId: 'fixture-session',
      project: '/tmp/copilot-project',
      startedAt: new Date(1_700_000_000_000).toISOString(),
      endedAt: new Date(1_700_000_010_000).toISOString(),
      userTurnCount: 1,
      assistantTurnCount: 1,
      location: path.resolve(file),
    });
    expect(session?.turns.map((turn) => [turn.role, turn.text, turn.timestamp])).toEqual([
      ['user', `The build is still broken; use ${REDACTED} and token ${REDACTED}`, new Date(1_700_000_001_000).toISOString()],
      ['assistant', `Implemented safely with password: ${REDACTED}`, new Date(1_700_000_010_000).toISOString()],
    ]);
    expect(session?.toolCalls).toEqual([{ name: 'copilot_readFile', afterTurn: 0 }]);
    expect(session?.outcomeSignals).toContainEqual(expect.objectContaining({ kind: 'user-feedback', polarity: 'negative', phrase: 'still broken' }));
    const text = JSON.stringify(session);
    for (const secret of ['sk-1234567890abcdef', 'local-secret', 'assistant-secret']) expect(text).not.toContain(secret);
    for (const unread of [
      'obsolete partial answer',
      'private chain of thought',
      'raw tool arguments',
      'raw tool output',
      'private result details',
      'private system context',
      'private rendered message',
      'private tool result',
      'private machine context',
      'orphan response',
      'foreign provider',
    ])
      expect(text).not.toContain(unread);
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, filesSkippedUnopened: 0, sessions: 1, corruptLineCount: 0, warnings: [] });
  });

  it('passes over a truncated trailing line, reporting it, and still rebuilds all three requests (shared fixture with a cut line of ours)', async () => {
    const file = copyFixture();
    appendFileSync(file, '{"kind":2,"k":["requests"],"v":[{"requestId":"request-4","message":{"te');
    const corrupt: Array<[number, string]> = [];
    const replay = await replayOperationLog(file, (line, message) => corrupt.push([line, message]));
    expect((replay.state as { requests: Array<{ requestId: string }> }).requests.map((item) => item.requestId)).toEqual([
      'request-1',
      'request-2',
      'request-3',
    ]);
    expect(corrupt).toEqual([[8, expect.stringContaining('not JSON')]]);
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => [session.sessionId, session.userTurnCount, session.task])).toEqual([
      ['fixture-session', 1, `The build is still broken; use ${REDACTED} and token ${REDACTED}`],
    ]);
    expect(report.corruptLines).toEqual([{ file: path.resolve(file), line: 8, message: expect.stringContaining('not JSON') }]);
  });

  it('keeps only Copilot Chat’s requests the developer made, the extension id given as a string too (fixture of ours, built from the spec’s shapes)', async () => {
    writeChatSession(path.join(storage, 'stable'), 'workspace-1', 'file:///home/user/project', 'mixed', [
      request('add a retry to the uploader'),
      request('summarise the workspace', { isSystemInitiated: true }),
      request('a prompt for another chat', { agent: { extensionId: 'example.other-chat' } }),
      request('/clear'),
      request('thanks, that works'),
    ]);
    const { sessions } = await harvest();
    expect(sessions.map((session) => session.turns.filter((turn) => turn.role === 'user').map((turn) => turn.text))).toEqual([
      ['add a retry to the uploader', 'thanks, that works'],
    ]);
    expect(sessions[0]).toMatchObject({ sessionId: 'mixed', userTurnCount: 2, assistantTurnCount: 2, project: '/home/user/project' });
  });

  it('leaves unopened the sessions of workspaces out of scope, without a folder here, or last written before the window (fixtures of ours)', async () => {
    const root = path.join(storage, 'stable');
    writeChatSession(root, 'in-scope', 'file:///home/user/project/sub', 'kept', [request('keep me')]);
    writeChatSession(root, 'elsewhere', 'file:///home/user/other', 'elsewhere', [request('not this project')]);
    writeChatSession(root, 'remote', 'vscode-remote://ssh-remote%2Bbox/home/user/project', 'remote', [request('a remote folder')]);
    writeChatSession(root, 'no-workspace-json', undefined, 'nameless', [request('an empty window')]);
    const old = writeChatSession(root, 'old', 'file:///home/user/project', 'old', [request('long ago')]);
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(old, past, past);
    const { sessions, report } = await harvest({ scope: ['/home/user/project'], since: Date.parse('2026-06-01T00:00:00Z') });
    expect(sessions.map((session) => [session.sessionId, session.project])).toEqual([['kept', '/home/user/project/sub']]);
    expect(report).toMatchObject({ filesFound: 5, filesRead: 1, filesSkippedUnopened: 4 });
    expect(report.skipped).toMatchObject({ 'outside-scope': 3, 'outside-window': 1 });
  });

  it('reads every storage root once, newest first, and follows no symbolic link (fixtures of ours)', async () => {
    const stable = path.join(storage, 'stable');
    const insiders = path.join(storage, 'insiders');
    const older = writeChatSession(stable, 'workspace-1', 'file:///home/user/project', 'older', [request('the older task')]);
    const newer = writeChatSession(insiders, 'workspace-2', 'file:///home/user/project', 'newer', [request('the newer task')]);
    utimesSync(older, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'));
    utimesSync(newer, new Date('2026-03-02T00:00:00Z'), new Date('2026-03-02T00:00:00Z'));
    symlinkSync(newer, path.join(stable, 'workspace-1', 'chatSessions', 'linked.jsonl'));
    const { sessions, report } = await harvest({ roots: [stable, insiders, `${stable}${path.sep}`] });
    expect(sessions.map((session) => session.task)).toEqual(['the newer task', 'the older task']);
    expect(report).toMatchObject({ filesFound: 2, filesRead: 2 });
    expect(report.locations).toEqual([stable, insiders, `${stable}${path.sep}`]);
  });

  it('warns of missing storage roots, when asked for by name, only when none of them exists (fixtures of ours)', async () => {
    const stable = path.join(storage, 'stable');
    const insiders = path.join(storage, 'insiders');
    writeChatSession(stable, 'workspace-1', 'file:///home/user/project', 'only', [request('the only task')]);
    const oneBuild = await harvest({ roots: [stable, insiders], requested: true });
    expect(oneBuild.sessions).toHaveLength(1);
    expect(oneBuild.report.warnings).toEqual([]);
    expect(oneBuild.report.locations).toEqual([stable, insiders]);

    const none = await harvest({ roots: [path.join(storage, 'none-1'), path.join(storage, 'none-2')], requested: true });
    expect(none.report.warnings.map((warning) => warning.path)).toEqual([path.join(storage, 'none-1'), path.join(storage, 'none-2')]);
  });
});

describe('the chat session operation log', () => {
  it('applies snapshots, sets, array patches and deletes by key path', () => {
    let state = applyOperation(undefined, { kind: 0, v: { requests: [], title: 'a' } });
    state = applyOperation(state, { kind: 2, k: ['requests'], v: [{ response: [] }, { response: [] }] });
    state = applyOperation(state, { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'one' }, { value: 'two' }] });
    state = applyOperation(state, { kind: 2, k: ['requests', 0, 'response'], i: 1, v: [{ value: 'TWO' }] });
    state = applyOperation(state, { kind: 2, k: ['requests', 1, 'response'], i: 0 });
    state = applyOperation(state, { kind: 1, k: ['title'], v: 'b' });
    state = applyOperation(state, { kind: 1, k: ['requests', 1, 'modelState'], v: { completedAt: 5 } });
    state = applyOperation(state, { kind: 3, k: ['requests', 0, 'response', 0] });
    expect(state).toEqual({ requests: [{ response: [{ value: 'TWO' }] }, { response: [], modelState: { completedAt: 5 } }], title: 'b' });
  });

  it('ignores operations that do not fit the state, and any path through a prototype', () => {
    const start = { requests: [{ response: [] }] };
    let state: unknown = structuredClone(start);
    for (const operation of [
      { kind: 2, k: ['missing'], v: [1] },
      { kind: 2, k: ['requests', 0], v: [1] },
      { kind: 1, k: ['nothing', 'here'], v: 1 },
      { kind: 1, k: ['requests', 5], v: 1 },
      { kind: 3, k: ['requests', 9] },
      { kind: 2, k: ['requests', 0, 'response'], i: -1, v: [1] },
      { kind: 1, k: ['__proto__', 'polluted'], v: true },
      { kind: 1, k: ['constructor'], v: 1 },
      { kind: 1, k: 'requests', v: 1 },
      { kind: 7, k: ['requests'], v: 1 },
      'not an operation',
    ])
      state = applyOperation(state, operation);
    expect(state).toEqual(start);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the workspace folder of a VS Code workspace storage', () => {
  it('maps folder and workspace-file URIs to local paths', () => {
    expect(workspaceFolderOf('{"folder":"file:///tmp/copilot-project"}')).toBe('/tmp/copilot-project');
    expect(workspaceFolderOf('{"folder":"file:///home/user/my%20project"}')).toBe('/home/user/my project');
    expect(workspaceFolderOf('{"folder":"file:///c%3A/Users/dev/repo"}')).toBe('c:/Users/dev/repo');
    expect(workspaceFolderOf('{"workspace":"file:///home/user/all.code-workspace"}')).toBe('/home/user');
    expect(workspaceFolderOf('{"folder":"vscode-remote://ssh-remote%2Bbox/home/user"}')).toBeUndefined();
    expect(workspaceFolderOf('{}')).toBeUndefined();
    expect(workspaceFolderOf('not json')).toBeUndefined();
  });

  it('keeps UNC hosts and rejects broken percent-encoding', () => {
    expect(fileUriToPath('file://server/share/repo')).toBe('//server/share/repo');
    expect(fileUriToPath('file://localhost/srv/repo')).toBe('/srv/repo');
    expect(fileUriToPath('file:///bad%zzpath')).toBeUndefined();
    expect(fileUriToPath('https://example.com/repo')).toBeUndefined();
  });
});
