import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatModel, GenerateRequest } from '@skillopt/contract';
import { hashHex } from './hashing.js';
import { HttpProblem, modelNotFound, readJsonObject, sendJson } from './openai-http.js';
import { messagesFromResponsesInput, responseFormatFromResponses, toolsFromResponses } from './responses-input.js';
import { streamResponse, type ResponseEnvelope, type ResponseOutputItem } from './responses-stream.js';

export interface ResponsesRouteOptions {
  /** The simulated models by the id a request names. */
  models: ReadonlyMap<string, ChatModel>;
  /** The target's id: a request for it without an `x-skillopt-purpose` header is a rollout. */
  targetModelId: string;
  maxBodyBytes: number;
}

/** Fields of the request a response echoes back, as the real API does. */
const ECHOED_FIELDS = [
  'instructions',
  'max_output_tokens',
  'metadata',
  'parallel_tool_calls',
  'previous_response_id',
  'reasoning',
  'store',
  'temperature',
  'tool_choice',
  'top_p',
  'truncation',
];

/**
 * `POST …/responses` of the OpenAI Responses API in front of the SIMULATED model, plain and
 * streamed: the model id chooses the role, function tools are offered to it, `function_call_output`
 * items bring the tool results back, and a `text.format` JSON schema is answered with text of
 * that shape. Fields it does not use are accepted and ignored. Errors are thrown as the OpenAI
 * routes' problems.
 */
export function createResponsesRoute(options: ResponsesRouteOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  return async (request, response) => {
    if (request.method !== 'POST')
      throw new HttpProblem(405, `${request.method} is not allowed on …/responses; use POST`, 'invalid_request_error', 'method_not_allowed');
    const body = await readJsonObject(request, options.maxBodyBytes);
    if (typeof body.model !== 'string' || body.model === '')
      throw new HttpProblem(400, 'you must provide a model parameter', 'invalid_request_error', null, 'model');
    const model = options.models.get(body.model);
    if (model === undefined) throw modelNotFound(body.model, options.models.keys());
    const messages = messagesFromResponsesInput(body.instructions, body.input);
    const tools = toolsFromResponses(body.tools);
    const responseFormat = responseFormatFromResponses(body.text);
    const maxOutputTokens = body.max_output_tokens;
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort(new Error('the client closed the connection'));
    });
    const purposeHeader = request.headers['x-skillopt-purpose'];
    const generateRequest: GenerateRequest = {
      messages,
      purpose: typeof purposeHeader === 'string' && purposeHeader !== '' ? purposeHeader : body.model === options.targetModelId ? 'rollout' : 'probe',
      signal: abort.signal,
      ...(tools ? { tools } : {}),
      ...(responseFormat ? { responseFormat } : {}),
      ...(typeof maxOutputTokens === 'number' && Number.isInteger(maxOutputTokens) && maxOutputTokens > 0 ? { maxOutputTokens } : {}),
    };
    const result = await model.generate(generateRequest);

    const id = `resp_sim_${hashHex(JSON.stringify(body)).slice(0, 24)}`;
    const output: ResponseOutputItem[] = [];
    if (result.text !== '')
      output.push({
        id: `msg_sim_${hashHex(id, 'message').slice(0, 24)}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: result.text, annotations: [], logprobs: [] }],
      });
    for (const call of result.toolCalls ?? [])
      output.push({
        id: `fc_sim_${hashHex(id, call.toolCallId).slice(0, 24)}`,
        type: 'function_call',
        status: 'completed',
        call_id: call.toolCallId,
        name: call.toolName,
        arguments: JSON.stringify(call.input ?? {}),
      });
    const echoed = Object.fromEntries(ECHOED_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
    const completed: ResponseEnvelope = {
      id,
      object: 'response',
      created_at: created,
      status: result.finishReason === 'length' ? 'incomplete' : 'completed',
      error: null,
      incomplete_details: result.finishReason === 'length' ? { reason: 'max_output_tokens' } : null,
      model: model.modelId,
      ...echoed,
      output,
      tools: Array.isArray(body.tools) ? body.tools : [],
      text: body.text ?? { format: { type: 'text' } },
      usage: {
        input_tokens: result.usage.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: result.usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      },
    };
    if (body.stream === true) streamResponse(response, completed);
    else sendJson(response, 200, completed);
  };
}
