import { ERROR_CODES, ProviderError, type FinishReason, type GenerateResult, type ToolCall, type Usage } from '@skillopt/contract';
import { estimateTokens } from '@skillopt/backends-kit';
import { ANTHROPIC_PROVIDER } from './provider.js';
import type { ThinkingBlockToReplay } from './thinking-memory.js';
import { hasReportedUsage, rateLimitedTokens, usageFromAnthropic } from './usage-mapping.js';

/** What a successful reply yields: the contract's result and what the model keeps for later. */
export interface MappedReply {
  result: GenerateResult;
  /** Thinking blocks to send back with this reply's tool calls (see ThinkingMemory). */
  thinkingBlocks: ThinkingBlockToReplay[];
  /** The tokens to charge against a tokens-per-minute budget. */
  rateLimitedTokens: number;
}

export interface ReplyContext {
  /** The model that was asked, named in errors. */
  modelId: string;
  requestId?: string | null | undefined;
  /** The prompt as text, to estimate usage from when the reply reports none. */
  promptText: () => string;
}

/**
 * Anthropic's stop reasons in the contract's terms. `refusal` never gets here: it is an error.
 * `model_context_window_exceeded` is a cut-off answer like `max_tokens`; `pause_turn` (a server
 * tool paused a long turn, which this package does not use) and anything new are `other`.
 */
export function finishReasonOf(stopReason: unknown): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    default:
      return 'other';
  }
}

function malformed(message: string, context: ReplyContext): ProviderError {
  return new ProviderError({
    code: ERROR_CODES.replyMalformed,
    provider: ANTHROPIC_PROVIDER,
    // A body that is not a Messages reply is a glitch on the way (a proxy, a truncated answer), not
    // the model's answer: asking again usually works.
    retryable: true,
    message: `${context.modelId}: ${message}`,
    details: { modelId: context.modelId, ...(context.requestId ? { requestId: context.requestId } : {}) },
  });
}

/**
 * A Messages API reply as the contract's GenerateResult.
 * - `text` joins the text blocks; thinking blocks are not part of it (they are returned to the
 *   API with tool calls, and counted in providerMetadata.thinkingBlocks);
 * - `tool_use` blocks become toolCalls;
 * - a `refusal`, or a reply with neither text nor tool calls, is a ProviderError (`reply-refused`,
 *   `reply-empty`), never an answer; its usage is in the error's details.
 */
export function mapReply(body: unknown, context: ReplyContext): MappedReply {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw malformed(
      `the reply is not a Messages API message object (got ${body === null ? 'null' : typeof body === 'string' ? 'text' : typeof body})`,
      context,
    );
  const message = body as { id?: unknown; model?: unknown; content?: unknown; stop_reason?: unknown; usage?: unknown };
  if (!Array.isArray(message.content)) throw malformed('the reply has no content array', context);

  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const thinkingBlocks: ThinkingBlockToReplay[] = [];
  for (const raw of message.content as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const block = raw as Record<string, unknown>;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
      toolCalls.push({ toolCallId: block.id, toolName: block.name, input: block.input ?? {} });
    else if (block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string')
      thinkingBlocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking' && typeof block.data === 'string') thinkingBlocks.push({ type: 'redacted_thinking', data: block.data });
    // Other block types (server tools, citations' companions) carry nothing the contract can hold.
  }
  const text = texts.join('');

  let usage: Usage;
  let limitedTokens: number;
  if (hasReportedUsage(message.usage)) {
    usage = usageFromAnthropic(message.usage);
    limitedTokens = rateLimitedTokens(message.usage);
  } else {
    usage = {
      inputTokens: estimateTokens(context.promptText()),
      outputTokens: estimateTokens(text + (toolCalls.length > 0 ? JSON.stringify(toolCalls) : '')),
      estimated: true,
    };
    limitedTokens = usage.inputTokens + usage.outputTokens;
  }

  const reported = (message.usage ?? {}) as { cache_creation_input_tokens?: unknown; cache_read_input_tokens?: unknown; service_tier?: unknown };
  const providerMetadata: Record<string, unknown> = {
    ...(typeof message.id === 'string' ? { responseId: message.id } : {}),
    ...(typeof message.model === 'string' ? { model: message.model } : {}),
    stopReason: message.stop_reason ?? null,
    ...(context.requestId ? { requestId: context.requestId } : {}),
    ...(typeof reported.cache_creation_input_tokens === 'number' ? { cacheCreationInputTokens: reported.cache_creation_input_tokens } : {}),
    ...(typeof reported.cache_read_input_tokens === 'number' ? { cacheReadInputTokens: reported.cache_read_input_tokens } : {}),
    ...(typeof reported.service_tier === 'string' ? { serviceTier: reported.service_tier } : {}),
    ...(thinkingBlocks.length > 0 ? { thinkingBlocks: thinkingBlocks.length } : {}),
  };

  const details = { modelId: context.modelId, stopReason: message.stop_reason ?? null, usage, ...(context.requestId ? { requestId: context.requestId } : {}) };
  if (message.stop_reason === 'refusal')
    throw new ProviderError({
      code: ERROR_CODES.replyRefused,
      provider: ANTHROPIC_PROVIDER,
      // Sampling again may answer; core decides (it retries the item, then excludes it).
      retryable: true,
      message: `${context.modelId} refused to answer (stop_reason "refusal")`,
      details,
    });
  if (text.trim() === '' && toolCalls.length === 0)
    throw new ProviderError({
      code: ERROR_CODES.replyEmpty,
      provider: ANTHROPIC_PROVIDER,
      retryable: true,
      message:
        message.stop_reason === 'max_tokens'
          ? `${context.modelId} used all of max_tokens before answering (thinking counts against it): raise max_output_tokens or lower thinking_budget_tokens`
          : `${context.modelId} replied with no text and no tool call (stop_reason ${JSON.stringify(message.stop_reason ?? null)})`,
      details,
    });

  return {
    result: {
      text,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      usage,
      finishReason: finishReasonOf(message.stop_reason),
      providerMetadata,
    },
    thinkingBlocks,
    rateLimitedTokens: limitedTokens,
  };
}
