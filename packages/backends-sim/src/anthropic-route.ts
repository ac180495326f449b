import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProviderError, SkillOptError, type ChatModel, type FinishReason, type GenerateRequest } from '@skillopt/contract';
import { estimateTokens } from '@skillopt/backends-kit';
import { AnthropicApiProblem, invalidRequest, sendAnthropicError } from './anthropic-errors.js';
import { messagesFromAnthropic, toolsFromAnthropic } from './anthropic-messages.js';
import { readJsonBody } from './anthropic-request-body.js';
import { createSimulatedPromptCache, type SimulatedPromptCache } from './anthropic-prompt-cache.js';
import { hashHex } from './hashing.js';
import { didYouMean } from './model-suggestion.js';

export interface AnthropicMessagesRouteOptions {
  /** The simulated models by the id a request names. */
  models: ReadonlyMap<string, ChatModel>;
  /** The target's id: a request for it without an `x-skillopt-purpose` header is a rollout. */
  targetModelId: string;
  maxBodyBytes: number;
  promptCache?: SimulatedPromptCache;
}

const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  other: 'end_turn',
};
const MINIMUM_THINKING_BUDGET = 1024;

function thinkingBudgetOf(body: Record<string, unknown>, maxTokens: number): number | undefined {
  const thinking = body.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  // Adaptive thinking leaves it to the model whether to think: the simulated one does not.
  if (thinking === undefined || thinking === null || thinking.type === 'disabled' || thinking.type === 'adaptive') return undefined;
  if (thinking.type !== 'enabled') throw invalidRequest('thinking.type: the simulator supports "enabled", "adaptive" and "disabled"');
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MINIMUM_THINKING_BUDGET)
    throw invalidRequest(`thinking.enabled.budget_tokens: Input should be greater than or equal to ${MINIMUM_THINKING_BUDGET}`);
  if (budget >= maxTokens) throw invalidRequest('`max_tokens` must be greater than `thinking.budget_tokens`.');
  return budget;
}

/** With thinking on, an assistant turn that used tools must come back with its thinking first (as the real API checks). */
function checkThinkingReplay(messages: unknown[]): void {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { role?: unknown; content?: unknown } | null;
    if (message?.role !== 'assistant') continue;
    const blocks = Array.isArray(message.content) ? (message.content as Array<{ type?: unknown }>) : [];
    if (blocks.some((block) => block?.type === 'tool_use') && blocks[0]?.type !== 'thinking' && blocks[0]?.type !== 'redacted_thinking')
      throw invalidRequest(
        `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(blocks[0]?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
      );
    return;
  }
}

function problemOf(error: unknown): AnthropicApiProblem {
  if (error instanceof AnthropicApiProblem) return error;
  if (ProviderError.isInstance(error) && error.status !== undefined && error.status < 500)
    return new AnthropicApiProblem('invalid_request_error', error.message, error.status);
  if (SkillOptError.isInstance(error) && error.category === 'user') return invalidRequest(error.message);
  return new AnthropicApiProblem('api_error', `simulated server error: ${(error as Error)?.message ?? String(error)}`);
}

/**
 * `POST /v1/messages` of the Anthropic Messages API in front of the SIMULATED model, plain and
 * streamed (server-sent events). The requested model id chooses the role, as on the OpenAI routes.
 * Usage comes with a simulated prompt cache: a request that repeats a `cache_control` prefix
 * reports `cache_read_input_tokens`. Errors have Anthropic's shape. The API key is not checked
 * (any value works), the `anthropic-version` header is accepted whatever it says.
 */
export function createAnthropicMessagesRoute(options: AnthropicMessagesRouteOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const promptCache = options.promptCache ?? createSimulatedPromptCache();

  async function answer(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    if (request.method !== 'POST') throw new AnthropicApiProblem('invalid_request_error', `${request.method} is not allowed on /v1/messages; use POST`, 405);
    const body = await readJsonBody(request, options.maxBodyBytes);
    if (typeof body.model !== 'string' || body.model === '') throw invalidRequest('model: Field required');
    const model = options.models.get(body.model);
    if (model === undefined)
      throw new AnthropicApiProblem(
        'not_found_error',
        `model: ${body.model} (this simulated server serves ${[...options.models.keys()].join(' and ')}, simulated models${didYouMean(body.model, options.models.keys())})`,
      );
    const maxTokens = body.max_tokens;
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
      throw invalidRequest('max_tokens: Field required (a whole number of at least 1)');
    const thinkingBudget = thinkingBudgetOf(body, maxTokens);
    const messages = messagesFromAnthropic(body.system, body.messages);
    if (thinkingBudget !== undefined) checkThinkingReplay(body.messages as unknown[]);
    const tools = toolsFromAnthropic(body.tools);
    const promptUsage = promptCache.account(model.modelId, body);

    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort(new Error('the client closed the connection'));
    });
    const purposeHeader = request.headers['x-skillopt-purpose'];
    const generateRequest: GenerateRequest = {
      messages,
      purpose: typeof purposeHeader === 'string' && purposeHeader !== '' ? purposeHeader : body.model === options.targetModelId ? 'rollout' : 'probe',
      signal: abort.signal,
      maxOutputTokens: maxTokens,
      ...(tools ? { tools } : {}),
    };
    const result = await model.generate(generateRequest);

    const id = `msg_sim_${hashHex(JSON.stringify(body)).slice(0, 24)}`;
    const thinking =
      thinkingBudget === undefined
        ? undefined
        : {
            type: 'thinking' as const,
            thinking: `Simulated thinking (the simulated model does not reason; budget ${thinkingBudget} tokens).`,
            signature: `sim-signature-${hashHex(id, 'thinking').slice(0, 32)}`,
          };
    const toolUses = (result.toolCalls ?? []).map((call) => ({ type: 'tool_use' as const, id: call.toolCallId, name: call.toolName, input: call.input ?? {} }));
    const thinkingTokens = thinking === undefined ? 0 : estimateTokens(thinking.thinking);
    const usage = {
      input_tokens: promptUsage.inputTokens,
      cache_creation_input_tokens: promptUsage.cacheCreationInputTokens,
      cache_read_input_tokens: promptUsage.cacheReadInputTokens,
      output_tokens: result.usage.outputTokens + thinkingTokens,
      ...(thinking === undefined ? {} : { output_tokens_details: { thinking_tokens: thinkingTokens } }),
      service_tier: 'standard',
    };
    const stopReason = STOP_REASONS[result.finishReason] ?? 'end_turn';
    const content = [...(thinking ? [thinking] : []), ...(result.text === '' ? [] : [{ type: 'text' as const, text: result.text }]), ...toolUses];

    if (body.stream !== true) {
      const text = JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: model.modelId,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': requestId });
      response.end(text);
      return;
    }

    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': requestId,
    });
    const send = (event: string, data: Record<string, unknown>): void => {
      response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    };
    send('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: model.modelId,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    send('ping', {});
    content.forEach((block, index) => {
      if (block.type === 'thinking') {
        send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
        send('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
      } else if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (let start = 0; start < block.text.length; start += 24)
          send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(start, start + 24) } });
      } else {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage });
    send('message_stop', {});
    response.end();
  }

  return async (request, response) => {
    const requestId = `req_sim_${hashHex(String(Date.now()), String(Math.random())).slice(0, 24)}`;
    try {
      await answer(request, response, requestId);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      sendAnthropicError(response, problemOf(error), requestId);
    }
  };
}
