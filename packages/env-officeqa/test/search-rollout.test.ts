import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, manifest as simManifest } from '@skillopt/backends-sim';
import {
  ERROR_CODES,
  messageText,
  ProviderError,
  type GenerateRequest,
  type RolloutResult,
  type RunEvent,
  type ScoredRollout,
  type TaskItem,
} from '@skillopt/contract';
import { composeConfigSchema, environmentSectionFor, resolveConfig, train } from '@skillopt/core';
import { createScriptedAgentRunner, createScriptedChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, manifest, SEARCH_INSTRUCTIONS, type OfficeQaTaskItem } from '../src/index';
import { contextFor, DEFAULT_CONFIG_FILE, FIXTURE_CONFIG, lastToolResults, toolReply } from './helpers';
import { resultsFor, type SearchServer, startSearchServer } from './search-server';

const TOKEN_VARIABLE = 'OFFICEQA_ROLLOUT_TEST_SEARCH_TOKEN';
const TOKEN = 'loopback-rollout-token-8d1f3c';

let server: SearchServer | undefined;
beforeEach(() => {
  process.env[TOKEN_VARIABLE] = TOKEN;
});
afterEach(async () => {
  delete process.env[TOKEN_VARIABLE];
  await server?.close();
  server = undefined;
});

function onlineConfig(url: string): Record<string, unknown> {
  return { ...FIXTURE_CONFIG, search_mode: 'online', search_api_url: url, search_auth_env: TOKEN_VARIABLE, search_provider: 'duckduckgo' };
}

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

async function firstItem(environment: ReturnType<typeof createEnvironment>): Promise<OfficeQaTaskItem> {
  return (await environment.loadSplit('train'))[0] as OfficeQaTaskItem;
}

const search = (query: string) => ({ toolName: 'search', input: { query } });

describe('a rollout in online mode', () => {
  it('offers search after glob, read and grep, sends the query with the token, and gives the model numbered results', async () => {
    server = await startSearchServer((request) => ({ body: { results: resultsFor((request.body as { query: string }).query) } }));
    const environment = createEnvironment(onlineConfig(server.url), { searchRetryBaseDelayMs: 1 });
    const model = createScriptedChatModel({ reply: [toolReply([search('harbor point fire budget 2023')]), '<answer>32,118</answer>'] });
    const result = scored(await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model })));

    expect(model.calls[0]!.tools!.map((tool) => tool.name)).toEqual(['glob', 'read', 'grep', 'search']);
    expect(messageText(model.calls[0]!.messages[0]!)).toContain(SEARCH_INSTRUCTIONS);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: { query: 'harbor point fire budget 2023', max_num_results: 4, provider: 'duckduckgo' } });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(lastToolResults(model.calls[1]!)).toEqual([
      {
        toolName: 'search',
        output: [
          '[2 results for "harbor point fire budget 2023"]',
          '1. Treasury Bulletin on harbor point fire budget 2023',
          '   https://example.org/bulletin?page=3',
          '   Receipts and outlays of the federal government.',
          '2. Second result',
          '   https://example.org/second',
          '   More text.',
        ].join('\n'),
      },
    ]);
    expect(result.details).toMatchObject({
      searchMode: 'online',
      searchProvider: 'custom-http',
      searchQueries: 1,
      searchesRefused: 0,
      searchResults: 2,
      toolCalls: 1,
    });
    expect(result.trajectory!.turns.map((turn) => turn.toolName ?? turn.role)).toEqual(['user', 'search', 'search', 'assistant', 'environment']);
  });

  it('mentions search in the instructions only when it is on', async () => {
    const environment = createEnvironment(FIXTURE_CONFIG);
    const model = createScriptedChatModel({ reply: ['<answer>1</answer>'] });
    await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model }));
    expect(messageText(model.calls[0]!.messages[0]!)).not.toMatch(/search/i);
    expect(model.calls[0]!.tools!.map((tool) => tool.name)).toEqual(['glob', 'read', 'grep']);
  });

  it('sends at most max_queries_per_turn searches a turn: later ones are refused and not sent; the next turn may search again', async () => {
    server = await startSearchServer(() => ({ body: [{ title: 'T', url: 'u', snippet: 's' }] }));
    const environment = createEnvironment({ ...onlineConfig(server.url), max_queries_per_turn: 2 }, { searchRetryBaseDelayMs: 1 });
    const model = createScriptedChatModel({
      reply: [
        toolReply([search('one'), search('two'), { toolName: 'glob', input: { pattern: '*' } }, search('three'), search('four')]),
        toolReply([search('five')]),
        '<answer>32,118</answer>',
      ],
    });
    const result = scored(await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model })));
    const first = lastToolResults(model.calls[1]!);
    expect(first.map((part) => part.toolName)).toEqual(['search', 'search', 'glob', 'search', 'search']);
    expect(first.map((part) => part.isError === true)).toEqual([false, false, false, true, true]);
    expect(first[3]!.output).toBe(
      'search: the limit of 2 searches per turn was reached; this query was not sent. Use the results you have, or search again in a later turn.',
    );
    expect(lastToolResults(model.calls[2]!)[0]).toMatchObject({ toolName: 'search', output: expect.stringContaining('[1 result for "five"]') });
    expect(server.requests.map((request) => (request.body as { query: string }).query)).toEqual(['one', 'two', 'five']);
    expect(result.details).toMatchObject({ searchQueries: 3, searchesRefused: 2, toolCalls: 6, toolErrors: 2 });
  });

  it('answers a bad query with an error result, sending nothing', async () => {
    server = await startSearchServer(() => ({ body: [] }));
    const environment = createEnvironment(onlineConfig(server.url));
    const model = createScriptedChatModel({ reply: [toolReply([{ toolName: 'search', input: { query: '  ' } }]), '<answer>1</answer>'] });
    await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model }));
    expect(lastToolResults(model.calls[1]!)).toEqual([{ toolName: 'search', output: 'search: "query" must be a non-empty string', isError: true }]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries 429 and 503 from the endpoint, then scores the item', async () => {
    server = await startSearchServer((_request, index) => (index === 0 ? { status: 429 } : index === 1 ? { status: 503 } : { body: resultsFor('q') }));
    const environment = createEnvironment(onlineConfig(server.url), { searchRetryBaseDelayMs: 1 });
    const model = createScriptedChatModel({ reply: [toolReply([search('q')]), '<answer>32,118</answer>'] });
    const result = scored(await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model })));
    expect(result.hard).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(result.details).toMatchObject({ searchQueries: 1, searchResults: 2 });
  });

  it('fails the rollout as infrastructure on a persistent 5xx: a retryable ProviderError with its attempts, never a score', async () => {
    server = await startSearchServer((request) => ({ status: 503, body: `down; you sent ${String(request.headers.authorization)}` }));
    const environment = createEnvironment(onlineConfig(server.url), { searchRetryBaseDelayMs: 1 });
    const model = createScriptedChatModel({ reply: [toolReply([search('q')]), '<answer>32,118</answer>'] });
    const failure = await environment.rollout(await firstItem(environment), contextFor({ kind: 'chat', model })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: ERROR_CODES.providerUnavailable, retryable: true, attempts: 4, status: 503 });
    expect(String((failure as Error).message)).not.toContain(TOKEN);
    expect(server.requests).toHaveLength(4);
    expect(model.calls).toHaveLength(1);
  });

  it('refuses online search for an agent target, as a config error', async () => {
    server = await startSearchServer(() => ({ body: [] }));
    const environment = createEnvironment(onlineConfig(server.url));
    const runner = createScriptedAgentRunner({ reply: ['<answer>1</answer>'] });
    await expect(environment.rollout(await firstItem(environment), contextFor({ kind: 'agent', runner }))).rejects.toMatchObject({
      code: ERROR_CODES.configInvalid,
      message: expect.stringContaining('online search is offered to chat targets only'),
    });
    expect(server.requests).toHaveLength(0);
    expect(runner.calls).toHaveLength(0);
  });
});

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

describe('a training run with online search', () => {
  let directory = '';
  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'env-officeqa-search-train-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('searches through the loopback endpoint, and the token is nowhere in the run directory, the events or the trajectories', async () => {
    // The endpoint echoes the Authorization header into a snippet: even then the token must not reach the model or the run.
    server = await startSearchServer((request) => ({
      body: [{ title: 'Echo', url: 'https://example.org/echo', snippet: `auth was ${String(request.headers.authorization)} raw ${TOKEN}` }],
    }));
    const resolved = await resolveConfig({
      layers: [DEFAULT_CONFIG_FILE],
      overrides: [
        'model.target_backend=sim',
        'model.optimizer_backend=sim',
        'model.target=sim-target',
        'model.optimizer=sim-optimizer',
        'train.num_epochs=1',
        'train.batch_size=3',
        'env.search_mode=custom_search',
        `env.search_api_url=${server.url}`,
        `env.search_auth_env=${TOKEN_VARIABLE}`,
      ],
      schema: composeConfigSchema({ environment: manifest, backends: { sim: simManifest } }),
    });
    const { config } = resolved;
    expect(config.env).toMatchObject({ search_mode: 'online' });
    const environment = createEnvironment(environmentSectionFor(config, manifest) as Parameters<typeof createEnvironment>[0], { searchRetryBaseDelayMs: 1 });
    const backend = createBackend(config.backends.sim as Parameters<typeof createBackend>[0]);
    const items: TaskItem[] = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    backend.simulator.receiveTaskItems(items);
    const requests: GenerateRequest[] = [];
    // A target that searches for the question once, then answers.
    const target = createScriptedChatModel({
      reply: (request) => {
        requests.push(request);
        const searched = request.messages.some((message) => message.role === 'tool');
        return searched ? '<answer>unknown</answer>' : toolReply([search(messageText(request.messages[1]!).slice(0, 200))]);
      },
    });
    const events: RunEvent[] = [];
    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: target },
      optimizer: backend.createChatModel({ role: 'optimizer', modelId: config.model.optimizer }),
      runDirectory: path.join(directory, 'run'),
      onEvent: (event) => events.push(event),
    });

    expect(summary.excludedItems).toEqual([]);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.length).toBe(requests.filter((request) => !request.messages.some((message) => message.role === 'tool')).length);
    for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const toolOutputs = requests.flatMap((request) => lastToolResults(request).map((part) => part.output));
    expect(toolOutputs.length).toBeGreaterThan(0);
    for (const output of toolOutputs) expect(output).toContain('auth was Bearer [redacted] raw [redacted]');

    const files = filesUnder(path.join(directory, 'run'));
    expect(files.length).toBeGreaterThan(0);
    const trajectoryFiles = files.filter((file) => readFileSync(file, 'utf8').includes('[redacted] raw [redacted]'));
    expect(trajectoryFiles.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(summary)).not.toContain(TOKEN);
  });
});
