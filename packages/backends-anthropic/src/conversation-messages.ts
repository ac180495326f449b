import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ERROR_CODES, ProviderError, type Message } from '@skillopt/contract';
import { imageBlockOf } from './image-block.js';
import { ANTHROPIC_PROVIDER } from './provider.js';
import type { ThinkingMemory } from './thinking-memory.js';

export interface AnthropicConversation {
  /** The text of each system message, in order (they become the top-level `system` blocks). */
  systemTexts: string[];
  messages: MessageParam[];
}

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

const isBlank = (text: string): boolean => text.trim() === '';

/**
 * The contract's messages in the Messages API's shape:
 * - system messages are collected for the top-level `system` (see buildSystemBlocks);
 * - user text and image parts become text and image blocks;
 * - an assistant's tool-call parts become `tool_use` blocks, preceded by the thinking blocks of the
 *   reply that made them when `replayThinking` is given (extended thinking requires them back);
 * - a tool message becomes a user turn of `tool_result` blocks;
 * - neighbouring turns of the same role are merged (a tool result and the next user text form one
 *   user turn, tool results first, as the API requires), and blank text is left out, since the API
 *   rejects empty text blocks.
 */
export function toAnthropicConversation(messages: readonly Message[], replayThinking?: ThinkingMemory): AnthropicConversation {
  const systemTexts: string[] = [];
  const turns: Turn[] = [];
  const push = (role: Turn['role'], content: ContentBlockParam[]): void => {
    if (content.length === 0) return;
    const previous = turns[turns.length - 1];
    if (previous !== undefined && previous.role === role) previous.content.push(...content);
    else turns.push({ role, content });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemTexts.push(message.content);
        break;
      case 'user': {
        if (typeof message.content === 'string') {
          if (!isBlank(message.content)) push('user', [{ type: 'text', text: message.content }]);
          break;
        }
        const blocks: ContentBlockParam[] = [];
        for (const part of message.content) {
          if (part.type === 'text') {
            if (!isBlank(part.text)) blocks.push({ type: 'text', text: part.text });
          } else blocks.push(imageBlockOf(part));
        }
        push('user', blocks);
        break;
      }
      case 'assistant': {
        if (typeof message.content === 'string') {
          if (!isBlank(message.content)) push('assistant', [{ type: 'text', text: message.content }]);
          break;
        }
        const blocks: ContentBlockParam[] = [];
        const firstCall = message.content.find((part) => part.type === 'tool-call');
        const thinking = firstCall === undefined ? undefined : replayThinking?.recall(firstCall.toolCallId);
        if (thinking !== undefined) blocks.push(...thinking.map((block) => ({ ...block })));
        for (const part of message.content) {
          if (part.type === 'text') {
            if (!isBlank(part.text)) blocks.push({ type: 'text', text: part.text });
          } else blocks.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input ?? {} });
        }
        push('assistant', blocks);
        break;
      }
      case 'tool': {
        const results: ToolResultBlockParam[] = message.content.map((part) => ({
          type: 'tool_result',
          tool_use_id: part.toolCallId,
          // An empty result is sent as no content: the API rejects an empty text block.
          ...(isBlank(part.output) ? {} : { content: part.output }),
          ...(part.isError ? { is_error: true } : {}),
        }));
        const previous = turns[turns.length - 1];
        if (previous !== undefined && previous.role === 'user') {
          // Tool results must lead their user turn: after earlier results, before any text.
          const firstOther = previous.content.findIndex((block) => block.type !== 'tool_result');
          previous.content.splice(firstOther < 0 ? previous.content.length : firstOther, 0, ...results);
        } else push('user', results);
        break;
      }
    }
  }

  if (turns.length === 0)
    throw new ProviderError({
      code: ERROR_CODES.providerBadRequest,
      provider: ANTHROPIC_PROVIDER,
      retryable: false,
      message: 'the Messages API needs at least one user or assistant message with content; this request had only system messages or blank ones',
    });
  return { systemTexts, messages: turns };
}

/**
 * Whether every assistant tool call in `messages` can be sent back with the thinking that made it.
 * When one cannot, the call goes out with thinking off (the API would reject it otherwise).
 */
export function canReplayThinking(messages: readonly Message[], memory: ThinkingMemory): boolean {
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const firstCall = message.content.find((part) => part.type === 'tool-call');
    if (firstCall !== undefined && memory.recall(firstCall.toolCallId) === undefined) return false;
  }
  return true;
}
