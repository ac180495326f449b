import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BackendPackage, ChatModel, EnvironmentPackage } from '@skillopt/contract';
import { z } from 'zod';
import { type PackageResolver, prepareChatModel } from '../../src/index';

// One metered model outside a training run: the config's role on its backend, built from the
// backend's own config section, every call appended to the ledger file as it is made.

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'prepare-chat-model-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const created: Array<{ section: unknown; role: string; modelId: string | undefined }> = [];

const backendPackage: BackendPackage<{ greeting: string }> = {
  manifest: {
    kind: 'backend',
    id: 'echo',
    specificationVersion: 'v1',
    configSchema: z.strictObject({ greeting: z.string().default('hi') }),
    description: 'echo',
  },
  priceTable: [{ provider: 'echo', modelId: 'echo-large', inputUsdPerMillionTokens: 1, outputUsdPerMillionTokens: 2, source: 'test', asOf: '2026-12-01' }],
  createBackend: (section) => ({
    specificationVersion: 'v1',
    id: 'echo',
    createChatModel: ({ role, modelId }): ChatModel => {
      created.push({ section, role, modelId });
      return {
        specificationVersion: 'v1',
        provider: 'echo',
        modelId: modelId ?? 'echo-small',
        generate: async () => ({ text: `${section.greeting}!`, usage: { inputTokens: 1000, outputTokens: 500 }, finishReason: 'stop' }),
      };
    },
  }),
};

const environmentPackage: EnvironmentPackage = {
  manifest: { kind: 'env', id: 'quiet', specificationVersion: 'v1', configSchema: z.object({}).passthrough(), description: 'quiet' },
  createEnvironment: () => {
    throw new Error('prepareChatModel must not create the env');
  },
};

const resolver: PackageResolver = {
  searchDirectories: [],
  resolveBackendPackage: async (name) => ({
    kind: 'backend',
    requestedName: name,
    packageName: '@test/echo',
    packageDirectory: folder,
    entryFile: folder,
    foundFrom: folder,
    module: backendPackage as BackendPackage,
  }),
  resolveEnvironmentPackage: async (name) => ({
    kind: 'env',
    requestedName: name,
    packageName: '@test/quiet',
    packageDirectory: folder,
    entryFile: folder,
    foundFrom: folder,
    module: environmentPackage,
  }),
};

test("the optimizer's model of the config, from its backend's section, metered into the ledger file and priced", async () => {
  const ledgerFile = path.join(folder, 'ledger.jsonl');
  const prepared = await prepareChatModel({
    layers: [
      {
        name: 'test',
        config: {
          env: { name: 'quiet' },
          model: { target_backend: 'echo', optimizer_backend: 'echo', optimizer: 'echo-large' },
          backends: { echo: { greeting: 'hello' } },
        },
      },
    ],
    overrides: [],
    workingDirectory: folder,
    resolver,
    role: 'optimizer',
    ledgerFile,
  });
  expect(created).toEqual([{ section: { greeting: 'hello' }, role: 'optimizer', modelId: 'echo-large' }]);
  expect(prepared.simulated).toBe(false);
  const reply = await prepared.model.generate({ messages: [{ role: 'user', content: 'x' }], purpose: 'mine' });
  expect(reply.text).toBe('hello!');
  await prepared.ledger.close();
  const lines = (await readFile(ledgerFile, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((line) => line.line)).toEqual(['call-started', 'call-finished']);
  expect(lines[0]).toMatchObject({ role: 'optimizer', purpose: 'mine', provider: 'echo', modelId: 'echo-large' });
  expect(prepared.ledger.totals().overall.costUsd).toBeCloseTo(0.002, 6);
});

test("holds the model to the config's budgets before every call", async () => {
  const prepared = await prepareChatModel({
    layers: [{ name: 'test', config: { env: { name: 'quiet' }, model: { target_backend: 'echo', optimizer_backend: 'echo' } } }],
    overrides: ['budget.total.max_calls=2'],
    workingDirectory: folder,
    resolver,
    role: 'optimizer',
    ledgerFile: path.join(folder, 'ledger.jsonl'),
    budgetResumeCommand: 'skillopt sleep mine',
  });
  const call = () => prepared.model.generate({ messages: [{ role: 'user', content: 'x' }], purpose: 'mine' });
  await call();
  await call();
  await expect(call()).rejects.toMatchObject({ code: 'budget-spent', details: { configKey: 'budget.total.max_calls', used: 2, max: 2 } });
  await prepared.ledger.close();
  expect(prepared.ledger.totals().overall.calls).toBe(2);
});
