import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AnswerPendingError, type ChatModel, type GenerateRequest, type Target } from '@skillopt/contract';
import { evaluateSkill, type EvaluateSkillOptions } from '../../src/evaluation/index.js';
import { createMemoryRolloutCache } from '../../src/rollout-cache/rollout-cache.js';
import { createScriptedEnvironmentForTests, makeItems, scoredResult } from './evaluation-test-doubles.js';

// A target that answers out of band (the handoff backend's kind): core keys its calls and treats a
// request left for an answer as neither a failure nor a score.

let workRoot: string;
beforeEach(async () => {
  workRoot = await mkdtemp(path.join(os.tmpdir(), 'skillopt-pending-'));
});
afterEach(async () => {
  await rm(workRoot, { recursive: true, force: true });
});

/** Answers the keys in `answered` (with the key itself), and leaves every other request waiting. */
function keyedTarget(answered: ReadonlySet<string>): { target: Target; keys: string[] } {
  const keys: string[] = [];
  const model: ChatModel = {
    specificationVersion: 'v1',
    provider: 'keyed-test-double',
    modelId: 'keyed',
    capabilities: { keyedRequests: true },
    async generate(request: GenerateRequest) {
      const key = String(request.requestKey);
      keys.push(key);
      if (!answered.has(key)) throw new AnswerPendingError({ requestIds: [key], directory: '/tmp/answers' });
      return { text: key, usage: { inputTokens: 1, outputTokens: 1, estimated: true }, finishReason: 'stop' };
    },
  };
  return { target: { kind: 'chat', model }, keys };
}

function evaluation(target: Target, overrides: Partial<EvaluateSkillOptions> = {}): EvaluateSkillOptions {
  const environment = createScriptedEnvironmentForTests(async (item, context) => {
    if (context.target.kind !== 'chat') throw new Error('a chat target');
    // Two calls a rollout, as a tool loop makes.
    await context.target.model.generate({ messages: [{ role: 'user', content: `${item.id} first` }], purpose: 'rollout' });
    await context.target.model.generate({ messages: [{ role: 'user', content: `${item.id} second` }], purpose: 'rollout' });
    return scoredResult(item, 1, 1);
  });
  return {
    environment,
    skill: '# Skill\n- Be brief.\n',
    items: makeItems(3),
    target,
    cache: createMemoryRolloutCache(),
    concurrency: 1,
    retries: 2,
    signal: new AbortController().signal,
    phase: 'selection',
    workDirectory: path.join(workRoot, 'rollouts'),
    ...overrides,
  };
}

describe('evaluateSkill with a target whose answers wait on disk', () => {
  it('lets every item write its request, retries and excludes none, then stops with all of them at once', async () => {
    const { target, keys } = keyedTarget(new Set());
    const error = await evaluateSkill(evaluation(target)).catch((caught: unknown) => caught);
    expect(AnswerPendingError.isInstance(error)).toBe(true);
    // One request per item (its first call), each asked once: no retry of a waiting request.
    expect(keys).toHaveLength(3);
    expect((error as AnswerPendingError).requestIds).toEqual(keys);
    expect(keys[0]).toMatch(/^rollout\/[0-9a-f]{16}\/item-0\/0\/0$/);
  });

  it('keys each call of a rollout by the skill, the item, the sample and the call, the same on every run', async () => {
    const first = keyedTarget(new Set());
    await evaluateSkill(evaluation(first.target)).catch(() => undefined);
    const answered = new Set(first.keys);
    const second = keyedTarget(answered);
    await evaluateSkill(evaluation(second.target)).catch(() => undefined);
    // The first calls are answered now; each rollout's second call is a request of its own.
    expect(second.keys.filter((key) => key.endsWith('/1'))).toHaveLength(3);
    const otherSample = keyedTarget(answered);
    await evaluateSkill(evaluation(otherSample.target, { sampleIndex: 1 })).catch(() => undefined);
    expect(otherSample.keys.every((key) => key.includes('/1/0') && !answered.has(key))).toBe(true);
  });

  it('keys a labelled candidate by its label, so a rewording elsewhere in it keeps its answers', async () => {
    const labelled = keyedTarget(new Set());
    await evaluateSkill(evaluation(labelled.target, { requestLabel: 'candidate-step-0003' })).catch(() => undefined);
    const reworded = keyedTarget(new Set(labelled.keys));
    const result = await evaluateSkill(evaluation(reworded.target, { skill: '# Skill\n- Be brief, please.\n', requestLabel: 'candidate-step-0003' })).catch(
      (caught: unknown) => caught,
    );
    expect(labelled.keys[0]).toBe('rollout/candidate-step-0003/item-0/0/0');
    // Only the second calls, never asked before, wait.
    expect((result as AnswerPendingError).requestIds.every((key) => key.endsWith('/1'))).toBe(true);
  });
});
