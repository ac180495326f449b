import { startFaultInjectingServer, type FaultInjectingServer } from '@skillopt/backends-kit/testing';

/**
 * Chat Completions bodies in OpenAI's documented formats, for the fault-injecting server of
 * backends-kit's testing entry, which plays the provider in these tests.
 */

/** A loopback OpenAI stand-in whose unscripted requests get a plain completion. */
export function startOpenAiServer(): Promise<FaultInjectingServer> {
  return startFaultInjectingServer({ fallback: { kind: 'json', body: completion('fallback') } });
}

export interface CompletionOptions {
  model?: string;
  finishReason?: string;
  refusal?: string | null;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens: number };
    completion_tokens_details?: { reasoning_tokens: number };
  } | null;
}

/** A non-streamed chat completion as OpenAI documents it (usage with cached and reasoning tokens). */
export function completion(content: string | null, options: CompletionOptions = {}): Record<string, unknown> {
  const usage =
    options.usage === undefined
      ? {
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        }
      : options.usage;
  return {
    id: 'chatcmpl-fixture-1',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: options.model ?? 'gpt-5-mini-2025-08-07',
    system_fingerprint: 'fp_fixture',
    service_tier: 'default',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: options.refusal ?? null,
          annotations: [],
          ...(options.toolCalls
            ? { tool_calls: options.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    ...(usage === null ? {} : { usage }),
  };
}

/** An OpenAI error body. */
export function errorBody(message: string, type: string, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}
