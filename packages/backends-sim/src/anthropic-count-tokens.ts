import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatModel } from '@skillopt/contract';
import { AnthropicApiProblem, invalidRequest, sendAnthropicError } from './anthropic-errors.js';
import { messagesFromAnthropic, toolsFromAnthropic } from './anthropic-messages.js';
import { promptTokensOf } from './anthropic-prompt-cache.js';
import { readJsonBody } from './anthropic-request-body.js';
import { hashHex } from './hashing.js';
import { didYouMean } from './model-suggestion.js';

/**
 * `POST …/messages/count_tokens`: `{input_tokens}` for a Messages request, estimated from its
 * text as the Messages route's usage is, so it equals the input, cache-read and cache-creation
 * tokens the same request reports when sent.
 */
export function createAnthropicCountTokensRoute(options: {
  models: ReadonlyMap<string, ChatModel>;
  maxBodyBytes: number;
}): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const requestId = `req_sim_${hashHex(String(Date.now()), String(Math.random())).slice(0, 24)}`;
    try {
      if (request.method !== 'POST')
        throw new AnthropicApiProblem('invalid_request_error', `${request.method} is not allowed on …/messages/count_tokens; use POST`, 405);
      const body = await readJsonBody(request, options.maxBodyBytes);
      if (typeof body.model !== 'string' || body.model === '') throw invalidRequest('model: Field required');
      if (!options.models.has(body.model))
        throw new AnthropicApiProblem(
          'not_found_error',
          `model: ${body.model} (this simulated server serves ${[...options.models.keys()].join(' and ')}, simulated models${didYouMean(body.model, options.models.keys())})`,
        );
      // Read as the Messages route reads it, so a request it would refuse is refused here too.
      messagesFromAnthropic(body.system, body.messages);
      toolsFromAnthropic(body.tools);
      const answer = JSON.stringify({ input_tokens: promptTokensOf(body) });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer), 'request-id': requestId });
      response.end(answer);
    } catch (error) {
      const problem =
        error instanceof AnthropicApiProblem
          ? error
          : new AnthropicApiProblem('api_error', `simulated server error: ${(error as Error)?.message ?? String(error)}`);
      sendAnthropicError(response, problem, requestId);
    }
  };
}
