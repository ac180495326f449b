import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { messageText, type CallWarning, type GenerateRequest } from '@skillopt/contract';
import { estimateTokens } from '@skillopt/backends-kit';
import { MINIMUM_THINKING_BUDGET_TOKENS } from './config-schema.js';
import { canReplayThinking, toAnthropicConversation } from './conversation-messages.js';
import { jsonReplyInstruction } from './json-reply-instruction.js';
import type { AnthropicRoleSettings } from './role-settings.js';
import { buildSystemBlocks } from './system-blocks.js';
import type { ThinkingMemory } from './thinking-memory.js';
import { toAnthropicTools } from './tool-definitions.js';

export interface MessageParamsPlan {
  params: MessageCreateParamsNonStreaming;
  /** The thinking budget sent, or undefined when this call goes without extended thinking. */
  thinkingBudgetTokens: number | undefined;
  /** The prompt as text, for a usage estimate when a reply reports none. */
  promptText: string;
  /** Prompt plus the output cap, charged against a tokens-per-minute budget until the real usage is known. */
  estimatedTokens: number;
}

/**
 * The thinking budget of one call: the configured one, unless
 * - the call asks for `reasoningEffort: 'none'`;
 * - the call's output cap leaves no room: the budget must be below max_tokens, so it is halved to
 *   fit, and dropped when half the cap is under Anthropic's minimum of 1024;
 * - the conversation has tool calls whose thinking blocks this model no longer holds.
 */
function thinkingBudgetFor(request: GenerateRequest, settings: AnthropicRoleSettings, maxTokens: number, memory: ThinkingMemory): number | undefined {
  const configured = settings.thinkingBudgetTokens;
  if (configured === undefined || request.reasoningEffort === 'none') return undefined;
  const budget = configured < maxTokens ? configured : Math.floor(maxTokens / 2);
  if (budget < MINIMUM_THINKING_BUDGET_TOKENS) return undefined;
  return canReplayThinking(request.messages, memory) ? budget : undefined;
}

/**
 * One Messages API request for a contract GenerateRequest (see the package README for each rule):
 * system messages → `system` blocks with a cache breakpoint on the last one; `max_tokens` = the
 * call's maxOutputTokens, else max_output_tokens; extended thinking with its budget; a JSON reply
 * asked for in words after the cached prefix. Not sent: `temperature` (the Messages API of
 * @anthropic-ai/sdk 1.14 no longer declares sampling parameters, newer models reject non-default
 * ones, and thinking refuses them) and `reasoningEffort` (Anthropic's effort setting is not accepted
 * by every model; `'none'` does turn extended thinking off for the call).
 */
export function buildMessageParams(request: GenerateRequest, settings: AnthropicRoleSettings, memory: ThinkingMemory): MessageParamsPlan {
  const maxTokens = request.maxOutputTokens ?? settings.maxOutputTokens;
  const thinkingBudgetTokens = thinkingBudgetFor(request, settings, maxTokens, memory);
  const conversation = toAnthropicConversation(request.messages, thinkingBudgetTokens === undefined ? undefined : memory);
  const system = buildSystemBlocks(conversation.systemTexts, {
    promptCaching: settings.promptCaching,
    trailingInstruction: jsonReplyInstruction(request.responseFormat),
  });
  const tools = toAnthropicTools(request.tools);
  const params: MessageCreateParamsNonStreaming = {
    model: settings.modelId,
    max_tokens: maxTokens,
    messages: conversation.messages,
    ...(system === undefined ? {} : { system }),
    ...(tools === undefined ? {} : { tools }),
    ...(thinkingBudgetTokens === undefined ? {} : { thinking: { type: 'enabled', budget_tokens: thinkingBudgetTokens } }),
  };
  const promptText = [
    ...(system ?? []).map((block) => block.text),
    ...request.messages
      .filter((message) => message.role !== 'system')
      .map((message) => (message.role === 'tool' ? message.content.map((part) => part.output).join('\n') : messageText(message))),
    ...(request.tools === undefined ? [] : [JSON.stringify(request.tools)]),
  ].join('\n');
  return { params, thinkingBudgetTokens, promptText, estimatedTokens: estimateTokens(promptText) + maxTokens };
}

/**
 * What `buildMessageParams` does not send although the call asked for it, as warnings for the
 * ledger (the reasons are in its comment): a temperature, a reasoning effort other than `none`,
 * and a JSON Schema, which is asked for in words and not enforced by the API.
 */
export function messageParamsWarnings(request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  if (request.temperature !== undefined)
    warnings.push({
      type: 'unsupported-setting',
      field: 'temperature',
      message: 'the Messages API is sent no temperature (newer models and extended thinking refuse one)',
    });
  if (request.reasoningEffort !== undefined && request.reasoningEffort !== 'none')
    warnings.push({
      type: 'unsupported-setting',
      field: 'reasoningEffort',
      message: 'reasoningEffort is not sent; extended thinking follows the configured thinking budget',
    });
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    warnings.push({
      type: 'unsupported-setting',
      field: 'responseFormat.schema',
      message: 'the JSON Schema is asked for in words; the Messages API does not enforce it',
    });
  return warnings;
}
