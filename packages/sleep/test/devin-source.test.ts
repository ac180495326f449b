import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type HarvestedSession, harvestSessions, projectScope, type SourceReport } from '../src/index.js';
import { devinSource } from '../src/sources/devin/devin-source.js';
import { SESSION_SOURCES } from '../src/sources/session-sources.js';
import { ORIGINAL_SKILLOPT_FIXTURES } from '../../../testdata/paths';

const SAMPLE = path.join(ORIGINAL_SKILLOPT_FIXTURES, 'plugins/devin/fixtures/devin_sample.json');

let home: string;
let transcripts: string;
let memoryFile: string;
let workspaceStorage: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'devin-source-'));
  transcripts = path.join(home, 'devin', 'cli', 'transcripts');
  memoryFile = path.join(home, '.agentmemory', 'standalone.json');
  workspaceStorage = path.join(home, 'Devin', 'User', 'workspaceStorage');
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

interface Harvested {
  sessions: HarvestedSession[];
  report: SourceReport;
}

interface HarvestSettings {
  workspaces?: string[];
  scope?: readonly string[];
  since?: number;
  requested?: boolean;
}

async function harvest(settings: HarvestSettings = {}): Promise<Harvested> {
  const harvest = harvestSessions({
    sources: [devinSource],
    sourcesRequested: settings.requested ?? false,
    scope: projectScope(settings.scope ?? 'all'),
    windowFor: () => (settings.since === undefined ? {} : { explicitStart: settings.since }),
    locations: {
      devinTranscripts: transcripts,
      agentMemoryFile: memoryFile,
      devinWorkspaces: settings.workspaces ?? [],
      devinWorkspaceStorage: workspaceStorage,
    },
    environment: {},
  });
  const sessions: HarvestedSession[] = [];
  for await (const session of harvest.sessions) sessions.push(session);
  return { sessions, report: harvest.reports[0] as SourceReport };
}

function writeFile(file: string, text: string, modified?: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (modified !== undefined) utimesSync(file, modified / 1000, modified / 1000);
  return file;
}

function writeTranscript(name: string, trajectory: object, modified?: number): string {
  return writeFile(path.join(transcripts, name), JSON.stringify(trajectory, null, 2), modified);
}

function step(source: 'user' | 'agent' | 'system', message: unknown, timestamp: string, extra: object = {}) {
  return { source, message, timestamp, ...extra };
}

function copySample(): string {
  mkdirSync(transcripts, { recursive: true });
  const file = path.join(transcripts, 'devin_sample.json');
  copyFileSync(SAMPLE, file);
  return file;
}

const NIGHT_ONE = Date.parse('2026-06-01T02:00:00Z');
const NIGHT_TWO = Date.parse('2026-06-02T02:00:00Z');

describe('the Devin source', () => {
  it('is registered, as Devin', () => {
    expect(SESSION_SOURCES).toContain(devinSource);
    expect(devinSource).toMatchObject({ id: 'devin', name: 'Devin' });
  });

  it('reads the shared ATIF sample: the task, every agent turn counted, the final test result kept and read as a passed verification', async () => {
    const file = copySample();
    const { sessions, report } = await harvest({ workspaces: [path.join(home, 'work', 'dutch-kis')] });
    expect(report.filesFound).toBe(1);
    expect(report.filesRead).toBe(1);
    expect(report.corruptLineCount).toBe(0);
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session).toMatchObject({
      source: 'devin',
      sessionId: 'demo-001',
      task: 'Fix the failing NullPointerException in OrderService.persist() in the dutch-kis project',
      startedAt: '2026-06-20T10:00:00.000Z',
      endedAt: '2026-06-20T10:01:00.000Z',
      userTurnCount: 1,
      assistantTurnCount: 2,
      location: file,
      // The sample names its project by folder name only, which is not taken as naming the workspace.
      project: '',
    });
    expect(session?.turns.map((turn) => [turn.role, turn.timestamp])).toEqual([
      ['user', '2026-06-20T10:00:00.000Z'],
      ['assistant', '2026-06-20T10:01:00.000Z'],
    ]);
    expect(session?.turns[1]?.text).toContain('BUILD SUCCESS, 142 passed, 0 failed');
    expect(session?.outcomeSignals).toEqual([
      { kind: 'verification', verifier: 'tests', passed: true, evidence: '142 passed, 0 failed' },
      { kind: 'verification', verifier: 'build', passed: true, evidence: 'BUILD SUCCESS' },
    ]);
  });

  it('takes the project from the trajectory’s own working directory when it states one (fixture of ours, built from the spec’s shapes)', async () => {
    writeTranscript('stated.json', {
      schema_version: 'ATIF-v1.7',
      session_id: 'stated-1',
      agent: { name: 'devin', version: '1.0', extra: { cwd: '/srv/checkouts/orders' } },
      steps: [step('user', 'add an index to the orders table', '2026-06-20T09:00:00Z'), step('agent', 'index added', '2026-06-20T09:00:30Z')],
    });
    const { sessions } = await harvest({ workspaces: ['/srv/checkouts/billing'] });
    expect(sessions.map((session) => session.project)).toEqual(['/srv/checkouts/orders']);
  });

  it('takes the project from the deepest workspace whose absolute path the transcript names, found in the Devin app’s workspace storage (fixture of ours)', async () => {
    const orders = path.join(home, 'work', 'orders');
    const ordersApi = path.join(orders, 'api');
    writeFile(path.join(workspaceStorage, 'a1', 'workspace.json'), JSON.stringify({ folder: pathToFileURL(orders).href }));
    writeFile(path.join(workspaceStorage, 'b2', 'workspace.json'), JSON.stringify({ folder: pathToFileURL(ordersApi).href }));
    writeFile(path.join(workspaceStorage, 'c3', 'workspace.json'), JSON.stringify({ folder: 'vscode-remote://ssh-remote+box/srv/orders' }));
    writeTranscript('named.json', {
      schema_version: 'ATIF-v1.7',
      session_id: 'named-1',
      steps: [
        step('user', 'why does the orders api return 500?', '2026-06-20T09:00:00Z'),
        step('agent', 'Reading the handler.', '2026-06-20T09:00:10Z', {
          tool_calls: [{ tool_call_id: 'call-1', function_name: 'read_file', arguments: { path: path.join(ordersApi, 'handler.ts') } }],
          observation: { results: [{ source_call_id: 'call-1', content: 'export const OUTPUT_OF_THE_TOOL = 1;' }] },
        }),
        step('system', 'context window compacted', '2026-06-20T09:00:20Z'),
        step('agent', `Fixed in ${orders}/api/handler.ts.`, '2026-06-20T09:01:00Z'),
      ],
    });
    const { sessions } = await harvest();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ project: ordersApi, assistantTurnCount: 2, toolCalls: [{ name: 'read_file', afterTurn: 0 }] });
    expect(sessions[0]?.turns.map((turn) => turn.text)).toEqual(['why does the orders api return 500?', `Fixed in ${orders}/api/handler.ts.`]);
    expect(JSON.stringify(sessions[0])).not.toContain('OUTPUT_OF_THE_TOOL');
    expect(JSON.stringify(sessions[0])).not.toContain('compacted');
  });

  it('keeps every exchange in order and a verdict change as a new signal: a failed run, then the passing one (fixture of ours)', async () => {
    writeTranscript('two-runs.json', {
      schema_version: 'ATIF-v1.6',
      session_id: 'two-runs',
      steps: [
        step('user', 'make the login test pass', '2026-06-20T08:00:00Z'),
        step('agent', [{ type: 'text', text: 'Ran it: 1 failed, 9 passed.' }], '2026-06-20T08:01:00Z'),
        step('agent', 'Still 1 failed, 9 passed after the first change.', '2026-06-20T08:02:00Z'),
        step('user', 'try the clock mock', '2026-06-20T08:03:00Z'),
        step('agent', 'With the mocked clock: 10 passed, 0 failed.', '2026-06-20T08:04:00Z'),
      ],
    });
    const { sessions } = await harvest();
    expect(sessions[0]?.turns.map((turn) => `${turn.role}: ${turn.text}`)).toEqual([
      'user: make the login test pass',
      'assistant: Still 1 failed, 9 passed after the first change.',
      'user: try the clock mock',
      'assistant: With the mocked clock: 10 passed, 0 failed.',
    ]);
    expect(sessions[0]?.assistantTurnCount).toBe(3);
    expect(sessions[0]?.outcomeSignals.filter((signal) => signal.kind === 'verification')).toEqual([
      { kind: 'verification', verifier: 'tests', passed: false, evidence: '1 failed' },
      { kind: 'verification', verifier: 'tests', passed: true, evidence: '10 passed, 0 failed' },
    ]);
  });

  it('cuts secrets out of every step it keeps', async () => {
    writeTranscript('secrets.json', {
      schema_version: 'ATIF-v1.7',
      session_id: 'secrets-1',
      steps: [
        step('user', 'run deploy with sk-1234567890abcdef and token local-secret', '2026-06-20T07:00:00Z'),
        step('agent', 'Deployed using ghp_AbCdEf0123456789AbCdEf0123 as the pusher.', '2026-06-20T07:00:40Z'),
      ],
    });
    const { sessions } = await harvest();
    const text = JSON.stringify(sessions[0]);
    expect(sessions[0]?.task).toBe('run deploy with [redacted] and token [redacted]');
    expect(sessions[0]?.turns[1]?.text).toContain('[redacted]');
    expect(text).not.toContain('sk-1234567890abcdef');
    expect(text).not.toContain('local-secret');
    expect(text).not.toContain('ghp_AbCdEf0123456789AbCdEf0123');
  });

  it('reports a transcript that is not JSON with its file and line, and reads the others', async () => {
    copySample();
    const broken = writeFile(path.join(transcripts, 'broken.json'), 'not json at all');
    const cut = writeFile(
      path.join(transcripts, 'cut.json'),
      '{\n  "schema_version": "ATIF-v1.7",\n  "steps": [\n    {"source": "user",, "message": "x"}\n  ]\n}',
    );
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => session.sessionId)).toEqual(['demo-001']);
    expect(report.corruptLineCount).toBe(2);
    expect(report.corruptLines).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: broken, line: 1 }), expect.objectContaining({ file: cut, line: 4 })]),
    );
    expect(report.filesRead).toBe(3);
  });

  it('counts a JSON file that is no ATIF transcript as malformed, not as a session', async () => {
    writeFile(path.join(transcripts, 'settings.json'), JSON.stringify({ theme: 'dark' }));
    writeTranscript('no-steps.json', { schema_version: 'ATIF-v1.7', session_id: 'x' });
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(0);
    expect(report.skipped.malformed).toBe(2);
  });

  it('leaves a transcript last written before the window unopened', async () => {
    const trajectory = (sessionId: string, time: number) => ({
      schema_version: 'ATIF-v1.7',
      session_id: sessionId,
      steps: [step('user', 'rename the module', new Date(time).toISOString())],
    });
    writeTranscript('old.json', trajectory('old', NIGHT_ONE - 3_600_000), NIGHT_ONE - 3_600_000);
    const recent = writeTranscript('recent.json', trajectory('recent', NIGHT_ONE + 3_000_000), NIGHT_ONE + 3_600_000);
    const { sessions, report } = await harvest({ since: NIGHT_ONE });
    expect(report.filesFound).toBe(2);
    expect(report.filesSkippedUnopened).toBe(1);
    expect(report.skipped['outside-window']).toBe(1);
    expect(report.filesRead).toBe(1);
    expect(sessions.map((session) => session.location)).toEqual([recent]);
  });

  describe('agentmemory and workspace skills, as one-turn pseudo-sessions (fixtures of ours, built from the spec’s shapes)', () => {
    const workspace = () => path.join(home, 'work', 'orders');

    function writeMemories(memories: Record<string, object>, modified: number): void {
      writeFile(memoryFile, JSON.stringify({ 'mem:memories': memories, 'mem:sessions': {} }), modified);
    }

    function writeSkill(name: string, text: string, modified: number): string {
      return writeFile(path.join(workspace(), '.devin', 'skills', name, 'SKILL.md'), text, modified);
    }

    it('dates them by their files, not by the harvest, and ids them by their content', async () => {
      writeMemories({ m1: { title: 'Orders use Optional', content: 'Never call .get() on repository results.' } }, NIGHT_ONE - 7_200_000);
      const skill = writeSkill('review', '---\nname: review\n---\nRun mvn verify before pushing.', NIGHT_ONE - 3_600_000);
      const { sessions } = await harvest({ workspaces: [workspace()] });
      expect(sessions.map((session) => session.sessionId)).toEqual([
        expect.stringMatching(/^devin-skill-review-[0-9a-f]{16}$/),
        expect.stringMatching(/^devin-memory-[0-9a-f]{16}$/),
      ]);
      const [skillSession, memorySession] = sessions;
      expect(skillSession).toMatchObject({
        project: workspace(),
        location: skill,
        skillsUsed: ['review'],
        startedAt: new Date(NIGHT_ONE - 3_600_000).toISOString(),
        userTurnCount: 1,
      });
      expect(skillSession?.task).toContain('Run mvn verify before pushing.');
      expect(memorySession).toMatchObject({
        task: 'Orders use Optional\n\nNever call .get() on repository results.',
        endedAt: new Date(NIGHT_ONE - 7_200_000).toISOString(),
        location: `${memoryFile}#m1`,
      });
    });

    it('are not harvested again by a window starting after the first harvest, unless they changed', async () => {
      writeMemories(
        {
          m1: { title: 'Orders use Optional', content: 'Never call .get().', updatedAt: '2026-05-30T10:00:00Z' },
          m2: { title: 'Prices are cents', content: 'Store money as integer cents.', updatedAt: '2026-05-30T11:00:00Z' },
        },
        NIGHT_ONE - 3_600_000,
      );
      writeSkill('review', 'Run mvn verify before pushing.', NIGHT_ONE - 3_600_000);
      const first = await harvest({ workspaces: [workspace()] });
      expect(first.sessions).toHaveLength(3);

      const second = await harvest({ workspaces: [workspace()], since: NIGHT_ONE });
      expect(second.sessions).toHaveLength(0);
      expect(second.report.filesRead).toBe(0);
      expect(second.report.bytesRead).toBe(0);
      expect(second.report.filesSkippedUnopened).toBe(2);

      // One memory changes after the first night: the store is rewritten, and only that memory is new.
      writeMemories(
        {
          m1: { title: 'Orders use Optional', content: 'Never call .get(); use orElseThrow.', updatedAt: '2026-06-01T09:00:00Z' },
          m2: { title: 'Prices are cents', content: 'Store money as integer cents.', updatedAt: '2026-05-30T11:00:00Z' },
        },
        NIGHT_ONE + 7 * 3_600_000,
      );
      const third = await harvest({ workspaces: [workspace()], since: NIGHT_ONE });
      expect(third.sessions.map((session) => session.task)).toEqual(['Orders use Optional\n\nNever call .get(); use orElseThrow.']);
      const firstIds = first.sessions.map((session) => session.sessionId);
      expect(firstIds).not.toContain(third.sessions[0]?.sessionId);

      // An edited skill comes back under a new id.
      writeSkill('review', 'Run mvn verify and the linter before pushing.', NIGHT_TWO - 3_600_000);
      const fourth = await harvest({ workspaces: [workspace()], since: NIGHT_TWO - 7_200_000 });
      expect(fourth.sessions).toHaveLength(1);
      expect(fourth.sessions[0]?.sessionId).toMatch(/^devin-skill-review-/);
      expect(firstIds).not.toContain(fourth.sessions[0]?.sessionId);
    });

    it('dates a memory without its own time by the store’s mtime, so a rewritten store brings it back', async () => {
      writeMemories({ m1: { title: 'Use pnpm', content: 'The repository uses pnpm, never npm.' } }, NIGHT_ONE - 3_600_000);
      expect((await harvest({ since: NIGHT_ONE })).sessions).toHaveLength(0);
      writeMemories({ m1: { title: 'Use pnpm', content: 'The repository uses pnpm 10, never npm.' } }, NIGHT_ONE + 3_600_000);
      const { sessions } = await harvest({ since: NIGHT_ONE });
      expect(sessions.map((session) => session.endedAt)).toEqual([new Date(NIGHT_ONE + 3_600_000).toISOString()]);
    });

    it('puts a memory in the project it names and leaves a workspace outside the scope unopened', async () => {
      const other = path.join(home, 'work', 'billing');
      writeMemories(
        {
          m1: { title: 'Orders', content: 'Orders live in the orders service.', project: workspace() },
          m2: { title: 'Billing', content: `Invoices are built in ${other}/invoices.` },
          m3: { title: 'Anywhere', content: 'Prefer small commits.' },
        },
        NIGHT_ONE,
      );
      writeFile(path.join(other, '.devin', 'skills', 'invoice', 'SKILL.md'), 'Number invoices by year.', NIGHT_ONE);
      const { sessions, report } = await harvest({ workspaces: [workspace(), other], scope: [workspace()] });
      expect(sessions.map((session) => session.task)).toEqual(['Orders\n\nOrders live in the orders service.']);
      expect(report.skipped['outside-scope']).toBe(3);
      expect(report.filesSkippedUnopened).toBe(1);
      const everything = await harvest({ workspaces: [workspace(), other] });
      expect(everything.sessions.map((session) => session.project).sort()).toEqual(['', other, other, workspace()].sort());
    });
  });

  describe('absent folders', () => {
    it('warn when Devin was asked for by name', async () => {
      const { sessions, report } = await harvest({ requested: true, workspaces: [path.join(home, 'no-such-workspace')] });
      expect(sessions).toHaveLength(0);
      expect(report.warnings.map((warning) => warning.path)).toEqual([transcripts, memoryFile]);
    });

    it('warn, asked for or not, when the transcripts folder is a file and the memory store is not JSON', async () => {
      writeFile(transcripts, 'a file where the folder should be');
      writeFile(memoryFile, '{"mem:memories": {"m1": {"title": "cut"');
      const { sessions, report } = await harvest();
      expect(sessions).toHaveLength(0);
      expect(report.warnings).toEqual([{ path: transcripts, message: expect.stringContaining('a file, not a folder') }]);
      expect(report.corruptLines).toEqual([expect.objectContaining({ file: memoryFile, line: 1 })]);
    });

    it('are listed quietly when every source is read', async () => {
      const { report } = await harvest({ workspaces: [path.join(home, 'no-such-workspace')] });
      expect(report.warnings).toEqual([]);
      expect(report.locations).toEqual([transcripts, memoryFile]);
    });
  });
});
