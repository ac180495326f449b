import { ProviderError, type ChatModel, type GenerateRequest } from '@skillopt/contract';
import { generateWithin } from '../src/index';

const request = { purpose: 'rollout', messages: [{ role: 'user' as const, content: 'hi' }] };

function modelThat(answer: (request: GenerateRequest) => Promise<string>): ChatModel & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test-double',
    modelId: 'scripted',
    signals,
    async generate(call) {
      if (call.signal) signals.push(call.signal);
      return { text: await answer(call), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' };
    },
  };
}

const never = () => new Promise<string>(() => undefined);

describe('generateWithin', () => {
  it('returns the answer of a call that finishes in time', async () => {
    const result = await generateWithin(
      modelThat(async () => 'Paris'),
      request,
      new AbortController().signal,
      1000,
    );
    expect(result.text).toBe('Paris');
  });

  it('gives up on a call that never answers with a retryable provider timeout, and aborts its signal', async () => {
    const model = modelThat(never);
    const error = await generateWithin(model, request, new AbortController().signal, 20).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.code).toBe('provider-timeout');
    expect((error as ProviderError).retryable).toBe(true);
    expect(model.signals[0]?.aborted).toBe(true);
  });

  it("rejects with the caller's reason when the caller aborts, and waits for no timeout when it is 0", async () => {
    const controller = new AbortController();
    const pending = generateWithin(modelThat(never), request, controller.signal, 0);
    controller.abort(new Error('stopped by the caller'));
    await expect(pending).rejects.toThrow('stopped by the caller');
  });

  it("passes the model's own errors through unchanged", async () => {
    const failure = new Error('model exploded');
    await expect(
      generateWithin(
        modelThat(() => Promise.reject(failure)),
        request,
        new AbortController().signal,
        1000,
      ),
    ).rejects.toBe(failure);
  });
});
