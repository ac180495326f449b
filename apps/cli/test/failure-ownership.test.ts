import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFaultInjectingServer, serverErrorReply, type FaultInjectingServer } from '@skillopt/backends-kit/testing';
import { createBackend } from '@skillopt/backends-openai';
import { coreConfigSchema, evaluate } from '@skillopt/core';
import { createEnvironment } from '@skillopt/env-searchqa';

// docs/failure-ownership.md: a provider's transient failure is the backend's to retry, and a
// rollout whose call the backend already retried to its limit is excluded, not run again. Under a
// storm of 503s, each item's call must reach the provider exactly `max_attempts` times — not
// `max_attempts` × (1 + run.retries) — and every item is excluded, never scored: the evaluation
// measured nothing and says so instead of reporting 0%.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

describe('who retries a failing provider', () => {
  let server: FaultInjectingServer;
  let workDirectory: string;
  beforeAll(async () => {
    server = await startFaultInjectingServer({ fallback: serverErrorReply(503) });
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-ownership-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('keeps the attempts per call within the backend limit under a storm of 503s, however many rollout retries core allows', async () => {
    const maxAttempts = 3;
    const items = 4;
    const backend = createBackend(
      { preset: 'openai_compatible', base_url: server.url('/v1'), max_attempts: maxAttempts, timeout_seconds: 10 },
      { environment: {} },
    );
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const config = coreConfigSchema.parse({
      model: { target: 'sim-target', target_backend: 'openai', optimizer_backend: 'openai' },
      env: { name: 'searchqa' },
      evaluation: { test_env_num: items },
      run: { retries: 2, rollout_concurrency: 2 },
    });
    const stopped = await evaluate({
      config,
      environment,
      target: { kind: 'chat', model: backend.createChatModel({ role: 'target', modelId: 'sim-target' }) },
      skill: '# Skill\n\nAnswer in an <answer> tag.\n',
      split: 'test',
      workDirectory,
    }).catch((error: unknown) => error as Error);
    expect(stopped).toMatchObject({ code: 'evaluation-excluded', category: 'provider', details: { excludedItems: items, evaluatedItems: items } });
    expect((stopped as Error).message).toMatch(
      new RegExp(`every one of its ${items} items .*after ${maxAttempts} attempts by the openai-compatible backend\\) \\(${items} items\\)`),
    );
    const completions = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(completions).toHaveLength(items * maxAttempts);
  });
});
