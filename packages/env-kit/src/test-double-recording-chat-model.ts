import type { ChatModel, GenerateRequest, GenerateResult } from '@skillopt/contract';

/** A real model with every request it received and every reply it gave kept, in call order. */
export interface RecordingChatModel {
  model: ChatModel;
  readonly requests: readonly GenerateRequest[];
  readonly replies: readonly GenerateResult[];
}

/**
 * TEST DOUBLE. Wraps a model (the simulator, say) so a test can check from the outside what an env
 * sent it and what came back, without changing its answers.
 */
export function createRecordingChatModel(model: ChatModel): RecordingChatModel {
  const requests: GenerateRequest[] = [];
  const replies: GenerateResult[] = [];
  return {
    requests,
    replies,
    model: {
      ...model,
      generate: async (request) => {
        requests.push(request);
        const reply = await model.generate(request);
        replies.push(reply);
        return reply;
      },
    },
  };
}
