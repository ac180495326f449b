import { chatTargetModel } from '../src/index';

describe('chatTargetModel', () => {
  it('gives the chat model of a chat target and refuses an agent harness as a config error', () => {
    const model = {
      specificationVersion: 'v1' as const,
      provider: 'p',
      modelId: 'm',
      generate: async () => ({ text: '', usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop' as const }),
    };
    expect(chatTargetModel({ kind: 'chat', model }, 'demo')).toBe(model);
    const runner = {
      specificationVersion: 'v1' as const,
      provider: 'p',
      modelId: 'm',
      run: async () => ({ finalText: '', transcript: [], usage: { inputTokens: 0, outputTokens: 0 }, exitStatus: { code: 0, signal: null, timedOut: false } }),
    };
    expect(() => chatTargetModel({ kind: 'agent', runner }, 'demo', 'a chat model with tools')).toThrow(
      'demo drives a chat model with tools; this run gave it an agent harness as the target',
    );
  });
});
