import type { ChatModel, GenerateRequest } from '@skillopt/contract';

/** A ChatModel that answers with the scripted texts in turn and records what it was asked. */
export function scriptedModel(replies: readonly string[]): ChatModel & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: 'scripted',
    requests,
    async generate(request: GenerateRequest) {
      requests.push(request);
      const text = replies[requests.length - 1];
      if (text === undefined) throw new Error('no scripted reply left');
      return { text, usage: { inputTokens: 10, outputTokens: 5 }, finishReason: 'stop' as const };
    },
  } as ChatModel & { requests: GenerateRequest[] };
}
