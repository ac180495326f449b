import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { SLEEP_ACTIONS, type SleepAction } from '../src/command-line/sleep-actions.js';
import { SOURCE_IDS } from '../src/harvest/session-record.js';
import { SESSION_SOURCES } from '../src/sources/session-sources.js';
import { createCrontabStandIn, type CrontabStandIn } from './crontab-stand-in.js';

// The MCP server as an agent meets it: a real process on stdio, started from the built package by
// a script that does what a plugin's MCP bin does, driven by the SDK's own client. Every tool is
// called at least once, in a HOME of its own, with a crontab stand-in first on PATH.

const fixture = path.resolve(__dirname, 'fixtures', 'mcp-server.mjs');

// Variables that would point a source, the state folder or XDG folders at the machine's own.
const LOCATING_VARIABLES = [
  'SKILLOPT_SLEEP_HOME',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'COPILOT_HOME',
  'OPENCODE_DB',
  'VSCODE_PORTABLE',
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'SKILLOPT_DEVIN_WORKSPACES',
  'NODE_OPTIONS',
];

interface Started {
  client: Client;
  stderr(): string;
}

let home: string;
let project: string;
let crontab: CrontabStandIn;
const clients: Client[] = [];

beforeAll(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-mcp-'));
  project = path.join(home, 'app');
  mkdirSync(project);
  mkdirSync(path.join(home, 'cancelled'));
  crontab = createCrontabStandIn(path.join(home, 'cron'));
});
afterAll(async () => {
  for (const client of clients) await client.close();
  rmSync(home, { recursive: true, force: true });
});

async function startServer(runtime: 'copilot' | 'devin', extraEnvironment: Record<string, string> = {}): Promise<Started> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !LOCATING_VARIABLES.includes(entry[0])),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture, runtime],
    env: {
      ...inherited,
      HOME: home,
      SKILLOPT_SLEEP_HOME: path.join(home, 'state'),
      PATH: `${crontab.binDirectory}${path.delimiter}${process.env.PATH}`,
      ...extraEnvironment,
    },
    cwd: project,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'sleep-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

/** The fields of `structuredContent` these tests read beyond toMatchObject. */
interface Structured {
  [key: string]: unknown;
  argv?: string[];
  sources?: Array<{ source: string }>;
  runDirectory?: string;
  skills?: Array<{ staging: { directory: string } | null; report?: { wouldStage: { document: string } | null } }>;
  cron?: { line: string };
  command?: string;
  requestIds?: string[];
  recentNights?: Array<{ outcome: string; reason?: string }>;
}
type ToolResult = CallToolResult & { structuredContent: Structured };

let copilot: Started;
beforeAll(async () => {
  copilot = await startServer('copilot');
});

async function call(name: string, args: Record<string, unknown> = {}, started: Started = copilot): Promise<ToolResult> {
  return (await started.client.callTool({ name, arguments: args })) as ToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

async function refusal(name: string, args: unknown): Promise<McpError> {
  const error = await copilot.client.callTool({ name, arguments: args as Record<string, unknown> }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('the tools the server lists', () => {
  test('one per action of skillopt-sleep, each option an argument (but help and json), unknown keys refused', async () => {
    expect(copilot.client.getServerVersion()).toMatchObject({ name: 'skillopt-sleep' });
    expect(copilot.client.getServerCapabilities()).toMatchObject({ tools: {} });
    const { tools } = await copilot.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'sleep_harvest',
      'sleep_mine',
      'sleep_dry_run',
      'sleep_run',
      'sleep_status',
      'sleep_adopt',
      'sleep_schedule',
      'sleep_unschedule',
    ]);
    for (const action of SLEEP_ACTIONS as readonly SleepAction[]) {
      const tool = tools.find((candidate) => candidate.name === `sleep_${action.name.replace('-', '_')}`);
      expect(tool?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      const properties = (tool?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const expected = Object.entries(action.options)
        .filter(([option]) => option !== 'help' && option !== 'json')
        .map(([option, definition]) => definition.plural ?? option.replaceAll('-', '_'));
      expect(Object.keys(properties).sort()).toEqual([...expected].sort());
      for (const [option, definition] of Object.entries(action.options)) {
        const property = properties[definition.plural ?? option.replaceAll('-', '_')];
        if (property === undefined) continue;
        expect(typeof property.description).toBe('string');
        const value = (definition.multiple ? property.items : property) as Record<string, unknown>;
        if (definition.multiple) expect(property.type).toBe('array');
        if (definition.type === 'boolean') expect(value.type).toBe('boolean');
        else if (definition.value?.kind === 'integer') expect(value).toMatchObject({ type: 'integer', minimum: definition.value.minimum });
        else if (definition.value?.kind === 'fraction') expect(value).toMatchObject({ type: 'number', minimum: 0, exclusiveMaximum: 1 });
        else expect(value.type).toBe('string');
      }
    }
    const adopt = tools.find((tool) => tool.name === 'sleep_adopt');
    expect(adopt?.inputSchema.properties).toMatchObject({ skills: { type: 'array', items: { type: 'string' } }, all_skills: { type: 'boolean' } });
    const schedule = tools.find((tool) => tool.name === 'sleep_schedule');
    expect(schedule?.inputSchema.properties).toMatchObject({
      hour: { type: 'integer', minimum: 0, maximum: 23 },
      minute: { type: 'integer', minimum: 0, maximum: 59 },
    });
    const run = tools.find((tool) => tool.name === 'sleep_run');
    expect(run?.inputSchema.properties).toMatchObject({
      sources: { type: 'array', items: { enum: SESSION_SOURCES.map((source) => source.id) } },
      persona: { enum: ['researcher', 'programmer'] },
      miner: { enum: ['heuristic', 'llm'] },
      max_tasks: { type: 'integer', minimum: 1 },
      recall: { type: 'integer', minimum: 0 },
    });
    expect((run?.inputSchema.properties as Record<string, { examples?: string[] }> | undefined)?.backend?.examples).toEqual(
      expect.arrayContaining(['sim', 'openai', 'claude-code', 'handoff']),
    );
    expect(SOURCE_IDS).toEqual(SESSION_SOURCES.map((source) => source.id));
  });
});

describe('calling each tool', () => {
  test('sleep_status of a project without nights', async () => {
    const result = await call('sleep_status');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ type: 'result', status: 'ok', exitCode: 0, project, nights: 0, proposals: [] });
    expect(result.structuredContent.argv).toEqual(['status', '--json']);
  });

  test('sleep_harvest on an empty HOME: nothing found, from the Copilot sources by default', async () => {
    const result = await call('sleep_harvest', { lookback: '7d' });
    expect(result.structuredContent).toMatchObject({ type: 'result', status: 'ok', exitCode: 0, sessions: 0, tasks: 0, scope: [project] });
    expect(result.structuredContent.sources?.map((report) => report.source)).toEqual(['copilot-cli', 'copilot-vscode']);
    expect(result.structuredContent.argv).toEqual(['harvest', '--lookback=7d', '--source=copilot-cli', '--source=copilot-vscode', '--json']);
    expect(textOf(result)).toContain('0 sessions (0 distinct tasks)');
    const named = await call('sleep_harvest', { sources: ['codex'], all_projects: true });
    expect(named.structuredContent).toMatchObject({ scope: 'all', sources: [{ source: 'codex' }] });
  });

  test('sleep_mine on an empty HOME writes no task file', async () => {
    const result = await call('sleep_mine', { miner: 'heuristic', max_tasks: 5 });
    expect(result.structuredContent).toMatchObject({ type: 'result', status: 'ok', tasksFile: null, sessions: 0, tasks: 0, miner: 'heuristic' });
  });

  test('sleep_dry_run on a persona: the finished night, with its validation scores and progress per stage', async () => {
    const progress: Progress[] = [];
    const result = (await copilot.client.callTool({ name: 'sleep_dry_run', arguments: { persona: 'researcher' } }, undefined, {
      onprogress: (notification) => progress.push(notification),
    })) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      type: 'result',
      status: 'ok',
      exitCode: 0,
      format: 'skillopt.sleep.night.v1',
      dryRun: true,
      outcome: 'accepted',
      validation: { before: { score: expect.any(Number) }, after: { score: 1 } },
    });
    expect(textOf(result)).toContain('# SkillOpt Sleep night (dry run): the gate accepted new rules');
    expect(textOf(result)).toContain('Report written to');
    expect(result.structuredContent.runDirectory?.startsWith(path.join(home, 'state', 'dry-runs'))).toBe(true);

    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((notification) => notification.total === 3)).toBe(true);
    for (const [index, notification] of progress.entries())
      if (index > 0) expect(notification.progress).toBeGreaterThan((progress[index - 1] as Progress).progress);
    const stages = [...new Set(progress.map((notification) => notification.message?.split(':')[0]))];
    expect(stages).toEqual(['replay', 'consolidate', 'report']);
  });

  test('sleep_run stages a proposal; sleep_status lists it; sleep_adopt writes it and undoes it', async () => {
    const progress: Progress[] = [];
    const night = (await copilot.client.callTool({ name: 'sleep_run', arguments: { persona: 'programmer' } }, undefined, {
      onprogress: (notification) => progress.push(notification),
    })) as ToolResult;
    expect(night.structuredContent).toMatchObject({ type: 'result', status: 'ok', night: 1, project, outcome: 'accepted' });
    expect(night.structuredContent.skills?.[0]?.staging?.directory).toEqual(expect.any(String));
    expect(progress.every((notification) => notification.total === 5)).toBe(true);
    expect(progress.at(-1)?.message).toMatch(/^stage: staging the proposal/);

    const status = await call('sleep_status');
    expect(status.structuredContent).toMatchObject({ nights: 1, proposals: [{ night: 1, status: 'pending' }] });

    const adopted = await call('sleep_adopt');
    expect(adopted.structuredContent).toMatchObject({ type: 'result', status: 'ok', adoptions: [{ action: 'adopt' }] });
    const skill = path.join(project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');
    expect(readFileSync(skill, 'utf8')).toBe(night.structuredContent.skills?.[0]?.report?.wouldStage?.document);
    const undone = await call('sleep_adopt', { undo: true });
    expect(undone.structuredContent).toMatchObject({ status: 'ok', adoptions: [{ action: 'undo' }] });
    expect(existsSync(skill)).toBe(false);
  });

  test('sleep_schedule and sleep_unschedule, against a crontab stand-in', async () => {
    const scheduled = await call('sleep_schedule', { hour: 2, minute: 30, persona: 'researcher' });
    expect(scheduled.structuredContent).toMatchObject({ type: 'result', status: 'ok', scheduler: 'cron', project, hour: 2, minute: 30 });
    const line = scheduled.structuredContent.cron?.line ?? 'no line';
    expect(crontab.text()).toContain(line);
    expect(scheduled.structuredContent.command).toContain("'--source=copilot-cli,copilot-vscode'");
    const removed = await call('sleep_unschedule');
    expect(removed.structuredContent).toMatchObject({ type: 'result', status: 'ok', scheduler: 'cron', removed: [expect.any(String)] });
    expect(crontab.text() ?? '').not.toContain(line);
  });
});

describe('exit codes as results', () => {
  test('a night that cannot be validated (exit 1) is an error result with the reason', async () => {
    const tasks = ['fix the login test', 'add a dark mode'].map((intent, index) => ({ id: `t${index}`, intent, split: index === 0 ? 'train' : 'val' }));
    writeFileSync(path.join(project, 'tasks.json'), JSON.stringify({ format: 'skillopt.sleep.tasks.v1', tasks }));
    writeFileSync(path.join(project, 'SKILL.md'), '# A skill\n');
    const result = await call('sleep_dry_run', { tasks: 'tasks.json', skill: 'SKILL.md' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ type: 'result', status: 'failed', exitCode: 1, outcome: 'refused' });
    expect(textOf(result)).toContain('none of the 2 tasks can be judged');
  });

  test("what the engine refuses (exit 2) is an error result with the command's error object", async () => {
    const result = await call('sleep_adopt', { project: path.join(home, 'elsewhere') });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      type: 'error',
      status: 'usage_error',
      exitCode: 2,
      error: { code: 'nothing-to-adopt', category: 'user' },
    });
    expect(textOf(result)).toContain('No staged proposal');
  });

  test('requests waiting for answers on the handoff backend (exit 3) are not an error: the folder is named', async () => {
    const handoff = path.join(home, 'handoff');
    const result = await call('sleep_dry_run', { persona: 'researcher', backend: 'handoff', set: [`backends.handoff.directory=${handoff}`] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ type: 'answers-pending', status: 'answers_pending', exitCode: 3, directory: handoff });
    expect(result.structuredContent.requestIds?.length).toBeGreaterThan(0);
    expect(textOf(result)).toContain('call sleep_dry_run again with the same arguments');
    expect(existsSync(path.join(handoff, 'index.json'))).toBe(true);
  });
});

describe('arguments refused before anything runs: JSON-RPC InvalidParams', () => {
  test.each([
    ['an unknown key, with the nearest', 'sleep_adopt', { skill: ['a'] }, 'unknown argument "skill"; did you mean "skills"?'],
    ['a wrong type', 'sleep_adopt', { undo: 'yes' }, 'undo must be a boolean, got the string "yes"'],
    ['two selections', 'sleep_adopt', { skills: ['a'], all_skills: true }, 'give at most one of staging, skills, all_skills, not skills and all_skills'],
    ['an hour out of range', 'sleep_schedule', { hour: 24 }, 'hour must be from 0 to 23, got 24'],
    ['a count that is not whole', 'sleep_run', { max_tasks: 2.5 }, 'max_tasks must be a whole number, got 2.5'],
    ['a source that is none', 'sleep_harvest', { sources: ['copilot'] }, 'sources[0] is one of'],
    ['a misspelt backend', 'sleep_dry_run', { persona: 'researcher', backend: 'openia' }, 'did you mean "openai"?'],
    ['an option of another action', 'sleep_status', { hour: 3 }, 'unknown argument "hour"'],
  ])('%s', async (_case, name, args, message) => {
    const error = await refusal(name, args);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain(`Invalid arguments for tool ${name}`);
    expect(error.message).toContain(message);
  });

  test('an unknown tool names the nearest', async () => {
    const error = await refusal('sleep_stauts', {});
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain('Unknown tool "sleep_stauts"; did you mean "sleep_status"?');
  });
});

describe('the devin runtime', () => {
  test('reads the Devin sessions unless told otherwise', async () => {
    const devin = await startServer('devin');
    const result = await call('sleep_harvest', {}, devin);
    expect(result.structuredContent.argv).toEqual(['harvest', '--source=devin', '--json']);
    expect(result.structuredContent.sources?.map((report) => report.source)).toEqual(['devin']);
    const { tools } = await devin.client.listTools();
    expect(tools.find((tool) => tool.name === 'sleep_run')?.description).toContain('Reads the devin sessions');
  });
});

describe('the end of the connection', () => {
  test('the client closing stdin ends runSleepMcpServer: the process returns from it by itself', async () => {
    const ended = path.join(home, 'server-ended');
    const started = await startServer('devin', { SLEEP_MCP_TEST_ENDED: ended });
    expect((await call('sleep_status', {}, started)).structuredContent.status).toBe('ok');
    await started.client.close();
    expect(readFileSync(ended, 'utf8')).toBe('ended\n');
  });
});

describe('cancelling a call', () => {
  test('stops the night: it is recorded as failed, and the server goes on answering', async () => {
    const controller = new AbortController();
    const cancelled = copilot.client
      .callTool({ name: 'sleep_run', arguments: { persona: 'researcher', project: path.join(home, 'cancelled') } }, undefined, {
        signal: controller.signal,
        onprogress: () => controller.abort(),
      })
      .then(
        () => 'finished',
        () => 'cancelled',
      );
    expect(await cancelled).toBe('cancelled');
    let recent: Array<{ outcome: string; reason?: string }> = [];
    for (let attempt = 0; attempt < 100 && recent.length === 0; attempt += 1) {
      const status = await call('sleep_status', { project: path.join(home, 'cancelled') });
      recent = status.structuredContent.recentNights ?? [];
      if (recent.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recent).toEqual([expect.objectContaining({ outcome: 'failed', reason: expect.stringMatching(/abort/i) })]);
    expect(copilot.stderr()).toBe('');
  });
});
