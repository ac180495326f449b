import { messageText, type ChatModel, type GenerateRequest, type GenerateResult, type TaskItem } from '@skillopt/contract';
import { abortable } from '@skillopt/runtime-kit';
import { createReferenceAnswerKey, formatAnswerInTags, type AnswerFormatter } from './reference-answer-key.js';

/** What a scripted reply may be: the reply text, or a whole result (for usage, tool calls, finish reasons). */
export type ScriptedChatReply = string | GenerateResult;

export type ScriptedChatReplyFunction = (request: GenerateRequest, callIndex: number) => ScriptedChatReply | Promise<ScriptedChatReply>;

export interface ScriptedChatModelOptions {
  /**
   * The replies: a function of the request and the 0-based call number (it may throw, to script a
   * provider failure), or a list used in call order (running past its end throws).
   */
  reply: ScriptedChatReplyFunction | readonly ScriptedChatReply[];
  /** Default `test-double`, so a result produced by a double is never mistaken for a real model's. */
  provider?: string;
  modelId?: string;
}

/** A ChatModel test double that also keeps every request it received, in call order. */
export interface ScriptedChatModel extends ChatModel {
  readonly calls: readonly GenerateRequest[];
}

/** A rough token count (4 characters a token), marked estimated, so usage totals are non-zero. */
function estimatedTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function toGenerateResult(reply: ScriptedChatReply, request: GenerateRequest): GenerateResult {
  if (typeof reply !== 'string') return reply;
  const promptText = request.messages.map(messageText).join('\n');
  return {
    text: reply,
    usage: { inputTokens: estimatedTokens(promptText), outputTokens: estimatedTokens(reply), estimated: true },
    finishReason: 'stop',
  };
}

/**
 * TEST DOUBLE. A ChatModel that answers from a script instead of a provider. Like a real model it
 * rejects with the signal's reason when `request.signal` is already aborted or aborts while a
 * scripted (asynchronous) reply is pending.
 */
export function createScriptedChatModel(options: ScriptedChatModelOptions): ScriptedChatModel {
  const calls: GenerateRequest[] = [];
  const script = options.reply;
  const replyFor: ScriptedChatReplyFunction =
    typeof script === 'function'
      ? script
      : (_request, callIndex) => {
          const reply = script[callIndex];
          if (reply === undefined) {
            throw new Error(`scripted chat model: no reply scripted for call ${callIndex + 1} (${script.length} scripted)`);
          }
          return reply;
        };
  return {
    specificationVersion: 'v1',
    provider: options.provider ?? 'test-double',
    modelId: options.modelId ?? 'scripted-chat-model',
    calls,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      if (request.signal?.aborted) throw request.signal.reason;
      const callIndex = calls.length;
      calls.push(request);
      const reply = await abortable(
        Promise.resolve().then(() => replyFor(request, callIndex)),
        request.signal,
      );
      return toGenerateResult(reply, request);
    },
  };
}

export interface ReferenceAnsweringOptions {
  /** How to phrase the answer; default `<answer>reference</answer>`. */
  formatAnswer?: AnswerFormatter;
  /** The reply when no item matches the prompt or the item has no references. */
  unknownReply?: string;
}

/**
 * TEST DOUBLE. A ChatModel that plays a model which knows every answer: it finds the item the
 * prompt is about (by its question, else its id; see `createReferenceAnswerKey`) and replies with
 * the item's first reference, formatted by `formatAnswer`.
 */
export function createReferenceAnsweringChatModel(items: readonly TaskItem[], options: ReferenceAnsweringOptions = {}): ScriptedChatModel {
  const findItem = createReferenceAnswerKey(items);
  const formatAnswer = options.formatAnswer ?? formatAnswerInTags;
  const unknownReply = options.unknownReply ?? 'I do not know.';
  return createScriptedChatModel({
    modelId: 'reference-answering-chat-model',
    reply: (request) => {
      const item = findItem(request.messages.map(messageText).join('\n'));
      const reference = item?.references?.[0];
      return item === undefined || reference === undefined ? unknownReply : formatAnswer(reference, item);
    },
  });
}
