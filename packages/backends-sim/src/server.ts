import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ProviderError,
  SkillOptError,
  type ChatModel,
  type GenerateRequest,
  type Message,
  type ResponseFormat,
  type TaskItem,
  type ToolDefinition,
} from '@skillopt/contract';
import { createAnswerKey } from './answer-key.js';
import { createAnthropicCountTokensRoute } from './anthropic-count-tokens.js';
import { createAnthropicMessagesRoute } from './anthropic-route.js';
import { hashHex } from './hashing.js';
import { badRequest as bad, HttpProblem, modelNotFound, readJsonObject, sendJson, sendProblem } from './openai-http.js';
import { modelsListing } from './models-list.js';
import { createResponsesRoute } from './responses-route.js';
import { createSimulatedModel, simulatedModelId } from './simulated-model.js';
import { refuseUpgrade } from './upgrade-refusal.js';

export interface SimulatorServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the simulator is a local test double and never listens on other interfaces unless told. */
  host?: string;
  seed?: number;
  noise?: number;
  latencyMs?: number;
  /** The task items the simulated knowledge (answer key) is built from. */
  items?: readonly TaskItem[];
  /** Default `sim-target`. */
  targetModelId?: string;
  /** Default `sim-optimizer`. */
  optimizerModelId?: string;
  harmfulRuleRate?: number;
  uselessRuleRate?: number;
  malformedReplyRate?: number;
  /** The largest request body accepted, in bytes (default 32 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
  /**
   * The time a client has to send its whole request, headers and body, in milliseconds (default
   * 60 000). A client that stalls is answered 408 and its connection closed, so a stuck or hostile
   * client cannot hold a connection open; the time to answer is not counted.
   */
  requestTimeoutMs?: number;
  /** The time a client has to send its request headers, in milliseconds (default 30 000, at most `requestTimeoutMs`). */
  headersTimeoutMs?: number;
}

/** The defaults of the request limits, for the CLI's flags to name. */
export const SIMULATOR_SERVER_LIMITS = { maxBodyBytes: 32 * 1024 * 1024, requestTimeoutMs: 60_000, headersTimeoutMs: 30_000 } as const;

export interface SimulatorServer {
  /** The OpenAI base URL, e.g. `http://127.0.0.1:54321/v1`. */
  url: string;
  /** `http://host:port`, without the `/v1`. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

function textOfContent(
  content: unknown,
  param: string,
): { text: string; parts?: Array<{ type: 'text'; text: string } | { type: 'image'; image: string; detail?: 'auto' | 'low' | 'high' }> } {
  if (content === null || content === undefined) return { text: '' };
  if (typeof content === 'string') return { text: content };
  if (!Array.isArray(content)) throw bad(`${param} must be a string or an array of content parts`, param);
  const parts: Array<{ type: 'text'; text: string } | { type: 'image'; image: string; detail?: 'auto' | 'low' | 'high' }> = [];
  for (const part of content as Array<Record<string, unknown>>) {
    if (part?.type === 'text' && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part?.type === 'image_url') {
      const imageUrl = part.image_url as { url?: unknown; detail?: unknown } | undefined;
      if (typeof imageUrl?.url !== 'string' || imageUrl.url === '') throw bad(`${param}: an image_url part needs image_url.url`, param);
      const detail = imageUrl.detail === 'auto' || imageUrl.detail === 'low' || imageUrl.detail === 'high' ? imageUrl.detail : undefined;
      parts.push({ type: 'image', image: imageUrl.url, ...(detail ? { detail } : {}) });
    } else throw bad(`${param}: unsupported content part type ${JSON.stringify(part?.type)}`, param);
  }
  return { text: parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n'), parts };
}

/** OpenAI chat messages → the contract's messages (tool calls and tool results included). */
function messagesFromOpenAI(raw: unknown): Message[] {
  if (!Array.isArray(raw) || raw.length === 0) throw bad('messages must be a non-empty array', 'messages');
  const toolNames = new Map<string, string>();
  return raw.map((entry, index): Message => {
    const message = entry as Record<string, unknown>;
    const param = `messages[${index}]`;
    switch (message?.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textOfContent(message.content, `${param}.content`).text };
      case 'user': {
        const content = textOfContent(message.content, `${param}.content`);
        return { role: 'user', content: content.parts ?? content.text };
      }
      case 'assistant': {
        const text = textOfContent(message.content, `${param}.content`).text;
        const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Array<Record<string, unknown>>) : [];
        if (calls.length === 0) return { role: 'assistant', content: text };
        const parts: Array<{ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }> = [];
        if (text !== '') parts.push({ type: 'text', text });
        for (const call of calls) {
          const fn = call.function as { name?: unknown; arguments?: unknown } | undefined;
          if (typeof call.id !== 'string' || typeof fn?.name !== 'string')
            throw bad(`${param}.tool_calls: each call needs an id and function.name`, `${param}.tool_calls`);
          let input: unknown = {};
          if (typeof fn.arguments === 'string' && fn.arguments.trim() !== '') {
            try {
              input = JSON.parse(fn.arguments);
            } catch {
              throw bad(`${param}.tool_calls: function.arguments is not valid JSON`, `${param}.tool_calls`);
            }
          }
          toolNames.set(call.id, fn.name);
          parts.push({ type: 'tool-call', toolCallId: call.id, toolName: fn.name, input });
        }
        return { role: 'assistant', content: parts };
      }
      case 'tool': {
        if (typeof message.tool_call_id !== 'string') throw bad(`${param}: a tool message needs tool_call_id`, param);
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.tool_call_id,
              toolName: toolNames.get(message.tool_call_id) ?? (typeof message.name === 'string' ? message.name : 'tool'),
              output: textOfContent(message.content, `${param}.content`).text,
            },
          ],
        };
      }
      default:
        throw bad(`${param}.role must be system, developer, user, assistant or tool`, `${param}.role`);
    }
  });
}

function toolsFromOpenAI(raw: unknown): ToolDefinition[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw bad('tools must be an array', 'tools');
  return (raw as Array<Record<string, unknown>>).map((tool, index) => {
    const fn = tool.function as { name?: unknown; description?: unknown; parameters?: unknown } | undefined;
    if (tool.type !== 'function' || typeof fn?.name !== 'string')
      throw bad(`tools[${index}] must be {type: "function", function: {name, …}}`, `tools[${index}]`);
    return {
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : '',
      inputSchema:
        typeof fn.parameters === 'object' && fn.parameters !== null ? (fn.parameters as Record<string, unknown>) : { type: 'object', properties: {} },
    };
  });
}

/** `response_format` of type `json_schema` as the contract's JSON response format (`json_object` asks for no shape: the prompt says it). */
function responseFormatFromChat(raw: unknown): ResponseFormat | undefined {
  const format = raw as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown } } | null | undefined;
  const schema = format?.json_schema?.schema;
  if (format?.type !== 'json_schema' || typeof schema !== 'object' || schema === null) return undefined;
  return {
    type: 'json',
    schema: schema as Record<string, unknown>,
    ...(typeof format.json_schema?.name === 'string' ? { name: format.json_schema.name } : {}),
  };
}

const FINISH_REASONS: Record<string, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  other: 'stop',
};

function positiveLimit(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new SkillOptError({
      code: 'config-invalid',
      category: 'user',
      message: `the simulator server's ${name} must be a positive number of milliseconds, got ${value}`,
    });
  return value;
}

/**
 * An HTTP server in front of the SIMULATED model, on 127.0.0.1 by default, speaking what model
 * clients and agent CLIs send: OpenAI Chat Completions and Responses, Anthropic Messages (plain and
 * streamed, with tools), count_tokens, the models list in either vendor's shape; a protocol upgrade
 * is refused with 426. The requested model id chooses the role: the target id answers tasks (and,
 * offered an agent's tools, reads the task and skill files with them first), the optimizer id
 * answers optimizer prompts; any other id is refused with an error naming the two.
 */
export async function createSimulatorServer(options: SimulatorServerOptions = {}): Promise<SimulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const answerKey = createAnswerKey(options.items ?? []);
  const common = {
    seed: options.seed ?? 0,
    noise: options.noise ?? 0,
    latencyMs: options.latencyMs ?? 0,
    answerKey,
    harmfulRuleRate: options.harmfulRuleRate ?? 0,
    uselessRuleRate: options.uselessRuleRate ?? 0,
    malformedReplyRate: options.malformedReplyRate ?? 0,
  };
  const targetId = simulatedModelId(options.targetModelId, 'target');
  const optimizerId = simulatedModelId(options.optimizerModelId, 'optimizer');
  if (targetId === optimizerId)
    throw new SkillOptError({ code: 'config-invalid', category: 'user', message: 'the target and optimizer model ids of the simulator server must differ' });
  const models = new Map<string, ChatModel>([
    [targetId, createSimulatedModel({ ...common, role: 'target', modelId: targetId })],
    [optimizerId, createSimulatedModel({ ...common, role: 'optimizer', modelId: optimizerId })],
  ]);
  const maxBodyBytes = options.maxBodyBytes ?? SIMULATOR_SERVER_LIMITS.maxBodyBytes;
  const requestTimeout = positiveLimit('requestTimeoutMs', options.requestTimeoutMs ?? SIMULATOR_SERVER_LIMITS.requestTimeoutMs);
  const headersTimeout = Math.min(positiveLimit('headersTimeoutMs', options.headersTimeoutMs ?? SIMULATOR_SERVER_LIMITS.headersTimeoutMs), requestTimeout);
  const anthropicMessages = createAnthropicMessagesRoute({ models, targetModelId: targetId, maxBodyBytes });
  const anthropicCountTokens = createAnthropicCountTokensRoute({ models, maxBodyBytes });
  const responses = createResponsesRoute({ models, targetModelId: targetId, maxBodyBytes });
  const created = Math.floor(Date.now() / 1000);

  async function chatCompletion(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJsonObject(request, maxBodyBytes);
    if (typeof body.model !== 'string') throw bad('you must provide a model parameter', 'model');
    const model = models.get(body.model);
    if (model === undefined) throw modelNotFound(body.model, models.keys());
    const messages = messagesFromOpenAI(body.messages);
    const tools = toolsFromOpenAI(body.tools);
    const maxTokens = body.max_completion_tokens ?? body.max_tokens;
    const responseFormat = responseFormatFromChat(body.response_format);
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort(new Error('the client closed the connection'));
    });
    const purposeHeader = request.headers['x-skillopt-purpose'];
    const generateRequest: GenerateRequest = {
      messages,
      purpose: typeof purposeHeader === 'string' && purposeHeader !== '' ? purposeHeader : body.model === targetId ? 'rollout' : 'probe',
      signal: abort.signal,
      ...(tools ? { tools } : {}),
      ...(responseFormat ? { responseFormat } : {}),
      ...(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0 ? { maxOutputTokens: maxTokens } : {}),
    };
    const result = await model.generate(generateRequest);
    const id = `chatcmpl-sim-${hashHex(JSON.stringify(body)).slice(0, 24)}`;
    const finishReason = FINISH_REASONS[result.finishReason] ?? 'stop';
    const toolCalls = result.toolCalls?.map((call) => ({
      id: call.toolCallId,
      type: 'function' as const,
      function: { name: call.toolName, arguments: JSON.stringify(call.input ?? {}) },
    }));
    const usage = {
      prompt_tokens: result.usage.inputTokens,
      completion_tokens: result.usage.outputTokens,
      total_tokens: result.usage.inputTokens + result.usage.outputTokens,
    };
    if (body.stream !== true) {
      sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: model.modelId,
        system_fingerprint: 'skillopt-simulated',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: result.text, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage,
      });
      return;
    }
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
      response.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.modelId, system_fingerprint: 'skillopt-simulated', choices, ...extra })}\n\n`,
      );
    };
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    for (let start = 0; start < result.text.length; start += 24) {
      chunk([{ index: 0, delta: { content: result.text.slice(start, start + 24) }, logprobs: null, finish_reason: null }]);
    }
    toolCalls?.forEach((call, index) => {
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] },
          logprobs: null,
          finish_reason: null,
        },
      ]);
    });
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }], includeUsage ? { usage: null } : {});
    if (includeUsage) chunk([], { usage });
    response.write('data: [DONE]\n\n');
    response.end();
  }

  // Node checks the two timeouts on a timer (every 30 s by default); checking four times per
  // timeout closes a stalled client within a quarter of its timeout after it expires.
  const serverLimits = { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(1, Math.min(30_000, Math.floor(headersTimeout / 4))) };
  const server = createServer(serverLimits, (request, response) => {
    const path = (request.url ?? '/').split('?')[0]?.replace(/\/+$/, '') ?? '';
    const handle = async (): Promise<void> => {
      // Routes match by their ending, so any base-URL prefix works (`/v1`, `/openai/deployments/<name>`, none).
      const modelPath = /\/models(?:\/([^/]+))?$/.exec(path);
      if (modelPath) {
        if (request.method !== 'GET') throw new HttpProblem(405, `${request.method} is not allowed on ${path}`, 'invalid_request_error', 'method_not_allowed');
        const oneId = modelPath[1] === undefined ? undefined : decodeURIComponent(modelPath[1]);
        const listing = modelsListing(request, [...models.keys()], created, oneId);
        if (listing === undefined) throw modelNotFound(oneId ?? '', models.keys());
        sendJson(response, 200, listing);
        return;
      }
      if (path.endsWith('/chat/completions')) {
        if (request.method !== 'POST') throw new HttpProblem(405, `${request.method} is not allowed on ${path}`, 'invalid_request_error', 'method_not_allowed');
        await chatCompletion(request, response);
        return;
      }
      if (path.endsWith('/responses')) return responses(request, response);
      // The Anthropic Messages API (anthropic-route.ts, anthropic-count-tokens.ts): they answer their own errors in Anthropic's shape.
      if (path.endsWith('/messages/count_tokens')) return anthropicCountTokens(request, response);
      if (path.endsWith('/messages')) return anthropicMessages(request, response);
      throw new HttpProblem(404, `Unknown route ${request.method} ${path} on the SkillOpt simulated server`, 'invalid_request_error', 'unknown_url');
    };
    handle().catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof HttpProblem) sendProblem(response, error);
      else if (ProviderError.isInstance(error) && error.status !== undefined && error.status < 500)
        sendProblem(response, new HttpProblem(error.status, error.message, 'invalid_request_error', error.code));
      else if (SkillOptError.isInstance(error) && error.category === 'user')
        sendProblem(response, new HttpProblem(400, error.message, 'invalid_request_error', error.code));
      else sendProblem(response, new HttpProblem(500, `simulated server error: ${(error as Error)?.message ?? String(error)}`, 'server_error', null));
    });
  });
  server.on('upgrade', refuseUpgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
