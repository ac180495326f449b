import { existsSync } from 'node:fs';
import { ProviderError, type GenerateRequest, type TaskItem } from '@skillopt/contract';
import {
  createFailingTarget,
  createReferenceAnswerKey,
  createReferenceAnsweringAgentRunner,
  createReferenceAnsweringChatModel,
  createRetryableProviderErrorForTests,
  createScriptedAgentRunner,
  createScriptedChatModel,
  createStallingTarget,
  createWorkDirectoryRolloutContextsForTests,
} from '../src/testing';

const items: TaskItem[] = [
  { id: 'q-1', taskType: 'qa', question: 'What is 2 + 2?', references: ['4', 'four'] },
  { id: 'q-2', taskType: 'qa', question: 'What is 2 + 2 + 2?', references: ['6'] },
  { id: 'q-3', taskType: 'qa', references: ['by id'] },
  { id: 'q-4', taskType: 'qa', question: 'No reference here?' },
];

function ask(text: string, signal?: AbortSignal): GenerateRequest {
  return { messages: [{ role: 'user', content: text }], purpose: 'rollout', ...(signal ? { signal } : {}) };
}

describe('scripted chat model (test double)', () => {
  it('replies from a function and records the requests', async () => {
    const model = createScriptedChatModel({ reply: (request, callIndex) => `reply ${callIndex}: ${request.purpose}` });
    const result = await model.generate(ask('hello'));
    expect(result.text).toBe('reply 0: rollout');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ inputTokens: 2, outputTokens: 4, estimated: true });
    expect(model.calls).toHaveLength(1);
    expect(model.provider).toBe('test-double');
  });

  it('replies from a list in call order and fails past its end', async () => {
    const model = createScriptedChatModel({ reply: ['one', 'two'] });
    expect((await model.generate(ask('a'))).text).toBe('one');
    expect((await model.generate(ask('b'))).text).toBe('two');
    await expect(model.generate(ask('c'))).rejects.toThrow(/no reply scripted for call 3 \(2 scripted\)/);
  });

  it('passes a whole GenerateResult through', async () => {
    const reply = { text: 'x', usage: { inputTokens: 10, outputTokens: 1 }, finishReason: 'length' as const };
    expect(await createScriptedChatModel({ reply: [reply] }).generate(ask('a'))).toEqual(reply);
  });

  it('rejects with the reason of an aborted signal, before or during the reply', async () => {
    const before = new AbortController();
    before.abort(new Error('before'));
    const model = createScriptedChatModel({ reply: () => new Promise<string>(() => undefined) });
    await expect(model.generate(ask('a', before.signal))).rejects.toThrow('before');
    const during = new AbortController();
    const pending = model.generate(ask('a', during.signal));
    during.abort(new Error('during'));
    await expect(pending).rejects.toThrow('during');
  });
});

describe('reference-answering doubles', () => {
  it('finds the item by the longest matching question, else by id', () => {
    const find = createReferenceAnswerKey(items);
    expect(find('Question: What is 2 + 2 + 2?')?.id).toBe('q-2');
    expect(find('Question: What is 2 + 2?')?.id).toBe('q-1');
    expect(find('task q-3')?.id).toBe('q-3');
    expect(find('nothing')).toBeUndefined();
  });

  it('answers with the first reference in answer tags', async () => {
    const model = createReferenceAnsweringChatModel(items);
    expect((await model.generate(ask('What is 2 + 2?'))).text).toBe('<answer>4</answer>');
    expect((await model.generate(ask('No reference here?'))).text).toBe('I do not know.');
    const plain = createReferenceAnsweringChatModel(items, { formatAnswer: (reference) => reference, unknownReply: '?' });
    expect((await plain.generate(ask('What is 2 + 2 + 2?'))).text).toBe('6');
    expect((await plain.generate(ask('something else'))).text).toBe('?');
  });

  it('has an agent runner counterpart', async () => {
    const runner = createReferenceAnsweringAgentRunner(items);
    const result = await runner.run({ skill: '', prompt: 'What is 2 + 2?', workspace: '/tmp/none', timeoutMs: 10, purpose: 'rollout' });
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    expect(result.usage.estimated).toBe(true);
  });

  it('finds the item in the task file of the request, as an env writes it', async () => {
    const runner = createReferenceAnsweringAgentRunner(items);
    const files = [
      { path: 'task.md', content: '## Question\n\nWhat is 2 + 2 + 2?' },
      { path: 'page.png', content: new Uint8Array([0x89, 0x50]) },
    ];
    const result = await runner.run({ skill: '', prompt: 'Read `task.md`.', workspace: '/tmp/none', files, timeoutMs: 10, purpose: 'rollout' });
    expect(result.finalText).toBe('<answer>6</answer>');
  });

  it('scripted agent runner honours aborts', async () => {
    const runner = createScriptedAgentRunner({ reply: () => new Promise<string>(() => undefined) });
    const controller = new AbortController();
    const pending = runner.run({ skill: '', prompt: 'x', workspace: '/tmp/none', timeoutMs: 10, purpose: 'rollout', signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('failing and stalling targets', () => {
  it('fails every call with a retryable ProviderError by default', async () => {
    const failing = createFailingTarget('chat');
    if (failing.target.kind !== 'chat') throw new Error('expected chat');
    const error = await failing.target.model.generate(ask('x')).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-unavailable', retryable: true, status: 503, category: 'provider' });
    expect(failing.callCount()).toBe(1);
    expect(createRetryableProviderErrorForTests().retryable).toBe(true);
  });

  it('fails agent runs with the given error', async () => {
    const error = new Error('boom');
    const failing = createFailingTarget('agent', error);
    if (failing.target.kind !== 'agent') throw new Error('expected agent');
    await expect(failing.target.runner.run({ skill: '', prompt: 'x', workspace: '/tmp', timeoutMs: 1, purpose: 'rollout' })).rejects.toBe(error);
  });

  it('stalls until aborted, and reports the call', async () => {
    const stalling = createStallingTarget('chat');
    if (stalling.target.kind !== 'chat') throw new Error('expected chat');
    const controller = new AbortController();
    const pending = stalling.target.model.generate(ask('x', controller.signal));
    await stalling.called;
    expect(stalling.callCount()).toBe(1);
    controller.abort(new Error('aborted'));
    await expect(pending).rejects.toThrow('aborted');
  });

  it('releases calls that ignore their signal', async () => {
    const stalling = createStallingTarget('agent');
    if (stalling.target.kind !== 'agent') throw new Error('expected agent');
    const pending = stalling.target.runner.run({ skill: '', prompt: 'x', workspace: '/tmp', timeoutMs: 1, purpose: 'rollout' });
    stalling.release();
    await expect(pending).rejects.toThrow(/released by the test/);
    await expect(stalling.target.runner.run({ skill: '', prompt: 'y', workspace: '/tmp', timeoutMs: 1, purpose: 'rollout' })).rejects.toThrow(
      /released by the test/,
    );
  });
});

describe('rollout contexts with work directories', () => {
  it('makes a directory per context on first use, the same one after, and removes them all', async () => {
    const contexts = createWorkDirectoryRolloutContextsForTests();
    const target = { kind: 'chat' as const, model: createScriptedChatModel({ reply: ['x'] }) };
    const first = contexts.contextFor({ skill: 's', target, itemId: 'item/1' });
    const second = contexts.contextFor({ skill: 's', target, itemId: 'item/1', sampleIndex: 1 });
    const directory = await first.workDirectory();
    expect(await first.workDirectory()).toBe(directory);
    expect(await second.workDirectory()).not.toBe(directory);
    expect(existsSync(directory)).toBe(true);
    await contexts.removeAll();
    expect(existsSync(directory)).toBe(false);
  });
});
