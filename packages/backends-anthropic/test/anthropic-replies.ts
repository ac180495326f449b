import { startFaultInjectingServer, type FaultInjectingServer, type ScriptedReply } from '@skillopt/backends-kit/testing';

/**
 * Messages API bodies in Anthropic's documented formats, for the fault-injecting server of
 * backends-kit's testing entry, which plays the API in these tests.
 */

/**
 * A loopback Anthropic stand-in: `script` answers the first requests in order, `fallback` (a plain
 * reply by default) every later one; `delayMs` holds back every fallback answer.
 */
export async function startAnthropicServer(
  script: readonly ScriptedReply[],
  fallback: ScriptedReply = { kind: 'json', body: messageReply() },
  options: { delayMs?: number } = {},
): Promise<FaultInjectingServer> {
  const delayed = options.delayMs !== undefined && fallback.kind !== 'hang' ? { ...fallback, delayMs: options.delayMs } : fallback;
  const server = await startFaultInjectingServer({ fallback: delayed, defaultHeaders: { 'request-id': 'req_fixture' } });
  server.script(...script);
  return server;
}

export interface ReplyOptions {
  text?: string;
  content?: unknown[];
  stopReason?: string;
  model?: string;
  usage?: Record<string, unknown>;
}

/** A non-streamed Messages API reply as Anthropic documents it. */
export function messageReply(options: ReplyOptions = {}): Record<string, unknown> {
  return {
    id: 'msg_01FixtureReply',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-sonnet-4-6',
    content: options.content ?? [{ type: 'text', text: options.text ?? 'The answer is <answer>42</answer>.', citations: null }],
    stop_reason: options.stopReason ?? 'end_turn',
    stop_sequence: null,
    usage: options.usage ?? { input_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 12, service_tier: 'standard' },
  };
}

/** An error body as Anthropic documents it. */
export function errorReply(status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return { kind: 'json', status, body: { type: 'error', error: { type, message }, request_id: 'req_fixture' }, headers };
}
