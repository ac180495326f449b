import { ERROR_CODES, ProviderError, type FinishReason, type GenerateResult, type Message, type ToolCall, type Usage } from '@skillopt/contract';
import { estimateUsage } from '@skillopt/backends-kit';
import { replyEmpty, replyMalformed, replyRefused } from './reply-errors.js';
import type { ResolvedModelSettings } from './resolve-model-settings.js';
import { describeUrl } from './safe-url.js';

/** The parts of a Chat Completions reply this package reads; anything may be missing on a non-OpenAI server. */
interface ReplyShape {
  id?: unknown;
  model?: unknown;
  system_fingerprint?: unknown;
  choices?: unknown;
  usage?: {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  } | null;
}

interface ChoiceShape {
  finish_reason?: unknown;
  message?: {
    content?: unknown;
    refusal?: unknown;
    reasoning_content?: unknown;
    tool_calls?: unknown;
  } | null;
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
};

/**
 * A reply as a GenerateResult, or the ProviderError it amounts to:
 * - a body that is not a completion (no `choices`) → `reply-malformed`, retried as a transport fault;
 * - a refusal (`message.refusal`, or `finish_reason: content_filter`) → `reply-refused`;
 * - no text and no tool call → `reply-empty` (noting when the output limit was spent, e.g. on reasoning);
 * - tool-call arguments that are not JSON → `reply-malformed`.
 * Usage comes from the reply (cached and reasoning tokens included); a server that reports none
 * gets an estimate from text length, marked `estimated`.
 */
export function readReply(raw: unknown, settings: ResolvedModelSettings, messages: readonly Message[], requestId?: string): GenerateResult {
  const { provider } = settings;
  const reply = (typeof raw === 'object' && raw !== null ? raw : {}) as ReplyShape;
  if (!Array.isArray(reply.choices))
    throw new ProviderError({
      code: ERROR_CODES.replyMalformed,
      provider,
      retryable: true,
      message: `${provider} at ${describeUrl(settings.baseUrl)} answered with something that is not a chat completion (${typeof raw === 'string' ? 'text' : 'no choices'})`,
    });
  const choice = reply.choices[0] as ChoiceShape | undefined;
  const message = choice?.message ?? undefined;
  const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
  const facts = { model: settings.modelId, ...(finishReason ? { finishReason } : {}), ...(requestId ? { requestId } : {}) };

  if (typeof message?.refusal === 'string' && message.refusal.trim() !== '')
    throw replyRefused(provider, `${provider} ${settings.modelId} refused: ${message.refusal.trim().slice(0, 300)}`, facts);
  if (finishReason === 'content_filter') throw replyRefused(provider, `${provider} ${settings.modelId} stopped: its content filter withheld the reply`, facts);

  const text = typeof message?.content === 'string' ? message.content : '';
  const toolCalls = readToolCalls(message?.tool_calls, provider, settings.modelId);
  if (text.trim() === '' && toolCalls.length === 0) {
    const spent = finishReason === 'length' ? ' (the output-token limit was reached before any text: raise max_tokens or lower the reasoning effort)' : '';
    throw replyEmpty(provider, `${provider} ${settings.modelId} answered with no text and no tool call${spent}`, facts);
  }

  const usage = readUsage(reply.usage, messages, text);
  return {
    text,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    usage,
    finishReason: (finishReason ? FINISH_REASONS[finishReason] : undefined) ?? (toolCalls.length > 0 ? 'tool-calls' : 'other'),
    providerMetadata: {
      preset: settings.preset,
      ...(typeof reply.id === 'string' ? { responseId: reply.id } : {}),
      ...(typeof reply.model === 'string' ? { servedModel: reply.model } : {}),
      ...(typeof reply.system_fingerprint === 'string' ? { systemFingerprint: reply.system_fingerprint } : {}),
      ...(requestId ? { requestId } : {}),
      ...(settings.azure ? { deployment: settings.azure.deployment } : {}),
      ...(settings.thinkingMode ? { thinkingMode: settings.thinkingMode } : {}),
      ...(typeof message?.reasoning_content === 'string' && message.reasoning_content !== '' ? { reasoningCharacters: message.reasoning_content.length } : {}),
    },
  };
}

type ToolCallShape = { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } } | null | undefined;

function readToolCalls(raw: unknown, provider: string, modelId: string): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  return (raw as ToolCallShape[]).flatMap((call, index): ToolCall[] => {
    if (call?.type !== undefined && call.type !== 'function') return [];
    const name = call?.function?.name;
    if (typeof name !== 'string' || name === '')
      throw replyMalformed(provider, `${provider} ${modelId} asked for tool call ${index + 1} without a function name`, { model: modelId });
    const argumentsText = typeof call?.function?.arguments === 'string' ? (call?.function?.arguments as string) : '';
    let input: unknown = {};
    if (argumentsText.trim() !== '') {
      try {
        input = JSON.parse(argumentsText);
      } catch (error) {
        throw replyMalformed(
          provider,
          `${provider} ${modelId} called the tool ${name} with arguments that are not JSON: ${argumentsText.slice(0, 200)}`,
          { model: modelId, toolName: name },
          error,
        );
      }
    }
    const toolCallId = typeof call?.id === 'string' && call.id !== '' ? call.id : `call_${index + 1}`;
    return [{ toolCallId, toolName: name, input }];
  });
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined);

/** Usage as the contract counts it: cached tokens inside input, reasoning tokens inside output. */
function readUsage(raw: ReplyShape['usage'], messages: readonly Message[], text: string): Usage {
  const inputTokens = count(raw?.prompt_tokens);
  const outputTokens = count(raw?.completion_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return estimateUsage(promptText(messages), text);
  const cached = count(raw?.prompt_tokens_details?.cached_tokens);
  const reasoning = count(raw?.completion_tokens_details?.reasoning_tokens);
  return {
    inputTokens,
    outputTokens,
    ...(cached !== undefined ? { cachedInputTokens: Math.min(cached, inputTokens) } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: Math.min(reasoning, outputTokens) } : {}),
  };
}

/** The text of a prompt, for estimates. */
export function promptText(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      if (typeof message.content === 'string') return message.content;
      return message.content
        .map((part) => {
          switch (part.type) {
            case 'text':
              return part.text;
            case 'tool-call':
              return JSON.stringify(part.input ?? {});
            case 'tool-result':
              return part.output;
            default:
              return '';
          }
        })
        .join('\n');
    })
    .join('\n');
}
