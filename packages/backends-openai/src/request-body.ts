import type { CallWarning, GenerateRequest } from '@skillopt/contract';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { wireReasoningEffort } from './reasoning-models.js';
import { toChatCompletionMessages, toChatCompletionTools } from './request-messages.js';
import type { ResolvedModelSettings } from './resolve-model-settings.js';

/** The request body, with the fields some OpenAI-compatible servers add to the API. */
export type ChatCompletionBody = ChatCompletionCreateParamsNonStreaming & {
  chat_template_kwargs?: { enable_thinking: boolean };
  enable_thinking?: boolean;
  thinking?: { type: 'adaptive' | 'disabled' };
};

/**
 * One Chat Completions request for a generate call:
 * - output tokens: the call's `maxOutputTokens`, capped by `max_tokens` from the config (which is
 *   also sent alone when the call names none), as `max_completion_tokens` or `max_tokens`;
 * - temperature: the call's, else the config's (null: none); never for reasoning models, which
 *   refuse it;
 * - `reasoning_effort`: only for reasoning models, adjusted to what the model accepts;
 * - tools as function tools; a JSON response format as `json_schema` (with a schema) or
 *   `json_object` (without), unless `json_response_format: false`;
 * - thinking (Qwen and chat-template servers, MiniMax): only when a mode other than
 *   server_default is chosen.
 */
export function buildRequestBody(settings: ResolvedModelSettings, request: GenerateRequest): ChatCompletionBody {
  const body: ChatCompletionBody = { model: settings.wireModel, messages: toChatCompletionMessages(request.messages) };

  const maxTokens =
    request.maxOutputTokens !== undefined && settings.maxTokens !== undefined
      ? Math.min(request.maxOutputTokens, settings.maxTokens)
      : (request.maxOutputTokens ?? settings.maxTokens);
  if (maxTokens !== undefined) body[settings.maxTokensParameter] = maxTokens;

  if (!settings.reasoningModel) {
    const temperature = request.temperature !== undefined ? request.temperature : settings.temperature;
    if (temperature !== undefined && temperature !== null) body.temperature = temperature;
  } else if (request.reasoningEffort !== undefined) {
    body.reasoning_effort = wireReasoningEffort(settings.modelId, request.reasoningEffort);
  }

  if (request.tools !== undefined && request.tools.length > 0) body.tools = toChatCompletionTools(request.tools);

  const format = request.responseFormat;
  if (format?.type === 'json' && settings.jsonResponseFormat)
    body.response_format = format.schema
      ? { type: 'json_schema', json_schema: { name: jsonSchemaName(format.name), schema: format.schema, strict: false } }
      : { type: 'json_object' };

  if (settings.thinkingMode !== undefined && settings.thinkingMode !== 'server_default') {
    const enabled = settings.thinkingMode === 'enabled';
    switch (settings.thinkingWire) {
      case 'chat-template-kwargs':
        body.chat_template_kwargs = { enable_thinking: enabled };
        break;
      case 'enable-thinking-field':
        body.enable_thinking = enabled;
        break;
      case 'minimax-thinking':
        // MiniMax-M2 models always think; their thinking cannot be switched off (the original's rule).
        body.thinking = { type: enabled || /^minimax-m2/i.test(settings.wireModel) ? 'adaptive' : 'disabled' };
        break;
      case 'none':
        break;
    }
  } else if (settings.thinkingWire === 'minimax-thinking' && /^minimax-m2/i.test(settings.wireModel)) {
    body.thinking = { type: 'adaptive' };
  }
  return body;
}

/** A `json_schema` name as the API accepts it: 1-64 letters, digits, _ or -. */
function jsonSchemaName(name: string | undefined): string {
  const cleaned = (name ?? 'response').replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64);
  return cleaned === '' ? 'response' : cleaned;
}

/**
 * What `buildRequestBody` leaves out of a call that asked for it, as warnings for the ledger: a
 * temperature a reasoning model refuses, a reasoning effort a chat model refuses, a JSON reply
 * format turned off for this server. The call still goes ahead; nothing is dropped silently.
 */
export function requestWarnings(settings: ResolvedModelSettings, request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  if (settings.reasoningModel && request.temperature !== undefined)
    warnings.push({
      type: 'unsupported-setting',
      field: 'temperature',
      message: `${settings.modelId} is a reasoning model, which refuses a temperature; none was sent`,
    });
  if (!settings.reasoningModel && request.reasoningEffort !== undefined && request.reasoningEffort !== 'none')
    warnings.push({
      type: 'unsupported-setting',
      field: 'reasoningEffort',
      message: `${settings.modelId} is not a reasoning model, which refuses reasoning_effort; none was sent`,
    });
  if (request.responseFormat?.type === 'json' && !settings.jsonResponseFormat)
    warnings.push({
      type: 'unsupported-setting',
      field: 'responseFormat',
      message: 'json_response_format is off for this model, so the JSON reply is asked for in the prompt only',
    });
  return warnings;
}
