import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBackend } from '@skillopt/backends-claude-code';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createAnthropicMessagesRoute } from '@skillopt/backends-sim';
import { type ChatModel, type GenerateRequest, type GenerateResult, messageText } from '@skillopt/contract';
import { createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, type SpreadsheetTaskItem } from '@skillopt/env-spreadsheetbench';
import { testWithAgentCli } from './helpers/agent-cli-cache';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';

/**
 * Issue #24 item 3: the answer workbooks are never inside or reachable from an agent's workspace.
 * The real Claude Code CLI, run by the env as a SpreadsheetBench target (its harness inside
 * bubblewrap), is driven by a model of ours that does what a cheating agent would: it has Python
 * walk the whole file system for workbooks and task folders, and open the answers by their real
 * paths. It finds only the copies of the inputs in its own workspace. The same search run outside
 * the sandbox finds the answers, so the search itself is able to.
 */
const TASK_ID = '39180';
const SYSTEM_PYTHON = '/usr/bin/python3';

/**
 * Python (without single quotes, so it fits in `python3 -c '…'`) printing as JSON every workbook and
 * task folder (named by the task's id) outside its working directory, and which known answer
 * paths it could open.
 */
function searchCode(taskId: string, knownPaths: readonly string[]): string {
  return [
    'import json, os',
    'here = os.getcwd()',
    'found = []',
    'for top in [entry for entry in os.listdir("/") if entry not in ("proc", "sys", "dev")]:',
    '    for folder, folders, files in os.walk("/" + top):',
    `        found += [os.path.join(folder, name) for name in files + folders if (name.endswith(".xlsx") or name == "${taskId}") and not os.path.join(folder, name).startswith(here)]`,
    'readable = []',
    `for known in ${JSON.stringify(knownPaths)}:`,
    '    try:',
    '        open(known, "rb").read(1)',
    '        readable.append(known)',
    '    except OSError:',
    '        pass',
    'print("SEARCH-RESULT " + json.dumps({"found": found, "readable": readable, "workspace": sorted(os.listdir(here))}))',
  ].join('\n');
}

/**
 * The searching agent's model: offered a shell, it runs the search once; given its result, it
 * stops. Requests without tools (the CLI's own side calls) get a plain reply.
 */
function searchingModel(command: string): { model: ChatModel; toolResults: string[] } {
  const toolResults: string[] = [];
  const reply = (text: string, extra: Partial<GenerateResult> = {}): GenerateResult => ({
    text,
    usage: { inputTokens: 10, outputTokens: 10 },
    finishReason: 'stop',
    ...extra,
  });
  const model: ChatModel = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'searching-agent',
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const shell = request.tools?.find((tool) => tool.name === 'Bash');
      const results = request.messages.flatMap((message) =>
        typeof message.content === 'string' ? [] : message.content.filter((part) => part.type === 'tool-result'),
      );
      if (shell === undefined) return reply('ok');
      if (results.length === 0)
        return reply('', {
          toolCalls: [{ toolCallId: 'toolu_search_1', toolName: 'Bash', input: { command, description: 'Look for the answer workbooks' } }],
          finishReason: 'tool-calls',
        });
      toolResults.push(...results.map((part) => (part.type === 'tool-result' ? String(part.output) : '')));
      return reply(`I searched the machine. ${messageText(request.messages.at(-1) ?? { role: 'user', content: '' }).length} characters came back.`);
    },
  };
  return { model, toolResults };
}

async function serve(model: ChatModel): Promise<{ origin: string; close: () => Promise<void> }> {
  const route = createAnthropicMessagesRoute({ models: new Map([[model.modelId, model]]), targetModelId: model.modelId, maxBodyBytes: 32 * 1024 * 1024 });
  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && (request.url ?? '').split('?')[0] === '/v1/messages') void route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface SearchResult {
  found: string[];
  readable: string[];
  workspace: string[];
}

function searchResultOf(text: string): SearchResult | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith('SEARCH-RESULT '));
  return line === undefined ? undefined : (JSON.parse(line.slice('SEARCH-RESULT '.length)) as SearchResult);
}

testWithAgentCli(
  'claude',
  'an agent on a SpreadsheetBench task that searches the machine for the answer workbooks finds none of them',
  async (cli) => {
    const root = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-unreachable-'));
    // A second copy of the task beside the rollouts' work folders, besides the one in the repository's test data.
    const dataRoot = path.join(root, 'data');
    cpSync(path.join(SPREADSHEETBENCH_TASKS, 'spreadsheet', TASK_ID), path.join(dataRoot, 'spreadsheet', TASK_ID), { recursive: true });
    const rows = JSON.parse(readFileSync(path.join(SPREADSHEETBENCH_TASKS, 'dataset_50.json'), 'utf8')) as Array<{ id: unknown }>;
    const row = rows.find((candidate) => String(candidate.id) === TASK_ID);
    for (const split of ['train', 'val', 'test']) {
      mkdirSync(path.join(root, 'split', split), { recursive: true });
      writeFileSync(path.join(root, 'split', split, 'items.json'), JSON.stringify(split === 'train' ? [row] : []));
    }
    const environment = createSpreadsheetBenchEnvironment({ split_dir: path.join(root, 'split'), data_root: dataRoot, python: SYSTEM_PYTHON });
    const contexts = createWorkDirectoryRolloutContextsForTests();
    try {
      const [item] = (await environment.loadSplit('train')) as SpreadsheetTaskItem[];
      if (item === undefined) throw new Error('the task did not load');
      const answers = [
        ...item.cases.map((testCase) => testCase.answer),
        ...readdirSync(path.join(SPREADSHEETBENCH_TASKS, 'spreadsheet', TASK_ID)).map((name) =>
          path.join(SPREADSHEETBENCH_TASKS, 'spreadsheet', TASK_ID, name),
        ),
      ];
      const command = `python3 -c '${searchCode(TASK_ID, answers)}'`;

      // Outside the sandbox the same search finds the answers: it is a search that works.
      const outside = searchResultOf(
        execFileSync(SYSTEM_PYTHON, ['-c', searchCode(TASK_ID, answers)], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
      );
      expect(outside?.found.some((found) => found.endsWith(`1_${TASK_ID}_answer.xlsx`))).toBe(true);
      expect(outside?.readable.length).toBeGreaterThan(0);

      const { model, toolResults } = searchingModel(command);
      const server = await serve(model);
      try {
        const backend = createBackend(
          { path: cli.binary, base_url: server.origin, max_thinking_tokens: 0 },
          { environment: { ANTHROPIC_API_KEY: 'loopback-search-key' }, rateLimiters: createRateLimiterRegistry() },
        );
        const runner = backend.createAgentRunner?.({ role: 'target', modelId: model.modelId });
        if (runner === undefined) throw new Error('claude-code made no agent runner');
        const context = contexts.contextFor({ skill: '# Skill\n\n- Look everywhere.', target: { kind: 'agent', runner }, itemId: item.id });
        const result = await environment.rollout(item, { ...context, phase: 'train' });
        expect(result).toMatchObject({ status: 'scored', hard: 0 });
      } finally {
        await server.close();
      }

      const inside = toolResults.map(searchResultOf).find((found) => found !== undefined);
      if (inside === undefined) throw new Error(`the search printed no result inside the sandbox: ${toolResults.join('\n').slice(0, 2000)}`);
      expect(inside.found).toEqual([]);
      expect(inside.readable).toEqual([]);
      expect(inside.workspace).toEqual(expect.arrayContaining(['inputs', 'outputs', 'task.md']));
    } finally {
      await contexts.removeAll();
      await environment.teardown?.();
      rmSync(root, { recursive: true, force: true });
    }
  },
  240_000,
);
