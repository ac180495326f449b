import { messageText, type ChatModel, type FinishReason, type GenerateRequest, type GenerateResult } from '@skillopt/contract';

/** What a scripted reply may be: the text alone, or the text with a finish reason. */
export type ScriptedReply = string | { text: string; finishReason?: FinishReason };

export interface RecordedCall {
  purpose: string;
  /** The text of every message, in order. */
  messages: string[];
  /** The first message's text: the stage's prompt (also on a re-ask). */
  prompt: string;
  /** The last message's text: the prompt, or the re-ask request. */
  lastMessage: string;
}

export interface ScriptedOptimizerDoubleOptions {
  /** Chooses the reply from the call (prompt text, purpose) and its 0-based number. */
  reply: (call: RecordedCall, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;
  /**
   * Delays that make concurrent calls complete out of order: `reverse` finishes later calls first,
   * `random` uses a seeded pseudo-random delay. Tests assert outputs, never timing.
   */
  completionOrder?: 'immediate' | 'reverse' | 'random';
  seed?: number;
}

export interface ScriptedOptimizerDouble extends ChatModel {
  readonly calls: RecordedCall[];
}

/**
 * TEST DOUBLE of the optimizer model: it answers each `generate` call with a scripted reply and
 * records what it was asked. Every call reports 10 input and 5 output tokens.
 */
export function createScriptedOptimizerDouble(options: ScriptedOptimizerDoubleOptions): ScriptedOptimizerDouble {
  const calls: RecordedCall[] = [];
  let seed = options.seed ?? 7;
  const nextRandom = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  return {
    specificationVersion: 'v1',
    provider: 'test-double',
    modelId: 'scripted-optimizer',
    calls,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const messages = request.messages.map(messageText);
      const call: RecordedCall = { purpose: request.purpose, messages, prompt: messages[0] ?? '', lastMessage: messages[messages.length - 1] ?? '' };
      const callIndex = calls.length;
      calls.push(call);
      const order = options.completionOrder ?? 'immediate';
      const delay = order === 'reverse' ? Math.max(0, 40 - callIndex * 5) : order === 'random' ? Math.floor(nextRandom() * 25) : 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      request.signal?.throwIfAborted();
      const scripted = await options.reply(call, callIndex);
      const reply = typeof scripted === 'string' ? { text: scripted } : scripted;
      return { text: reply.text, usage: { inputTokens: 10, outputTokens: 5 }, finishReason: reply.finishReason ?? 'stop' };
    },
  };
}

export const NEVER_CALLED_OPTIMIZER_DOUBLE: ChatModel = {
  specificationVersion: 'v1',
  provider: 'test-double',
  modelId: 'never-called',
  generate() {
    throw new Error('this test double must not be called');
  },
};

export const noAbort = (): AbortSignal => new AbortController().signal;
