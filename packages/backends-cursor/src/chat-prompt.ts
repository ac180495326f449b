import { messageText, type Message } from '@skillopt/contract';
import { renderConversationTurn } from '@skillopt/backends-kit';

/** What a chat call's prompt left out, for the call's warnings. */
export interface CursorChatPrompt {
  /** The whole stdin of the call. */
  prompt: string;
  leftOutImages: boolean;
}

/**
 * A conversation as one Cursor prompt. `cursor-agent` has no flag for a system prompt, so the
 * system messages come first, under their own heading, then a lone user message as it is, or a
 * longer conversation as a labelled transcript that ends by asking for the next reply. Image parts
 * are left out (a chat call attaches no files); tool calls and results are written as text.
 */
export function renderChatPrompt(messages: readonly Message[], options: { jsonInWords: boolean }): CursorChatPrompt {
  const system = messages
    .filter((message) => message.role === 'system')
    .map(messageText)
    .filter((text) => text.trim() !== '');
  const rest = messages.filter((message) => message.role !== 'system');
  const only = rest[0];
  const conversation =
    rest.length === 1 && only?.role === 'user'
      ? messageText(only)
      : rest.length === 0
        ? 'Reply as the assistant.'
        : ['The conversation so far:', ...rest.map(renderConversationTurn), 'Reply to the last message as the assistant.'].join('\n\n');
  const parts = [
    ...(system.length === 0 ? [] : [`# Instructions\n\n${system.join('\n\n')}`, '# Request']),
    conversation,
    ...(options.jsonInWords ? ['Reply with one JSON value and nothing else.'] : []),
  ];
  const leftOutImages = messages.some(
    (message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'),
  );
  return { prompt: parts.join('\n\n'), leftOutImages };
}
