import { messageText, type Message } from '@skillopt/contract';

/** The system prompt of a chat call whose messages carry none: Claude Code's own is for coding sessions. */
const DEFAULT_CHAT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer the request directly.';

export interface ChatPrompt {
  /** Replaces Claude Code's system prompt. */
  system: string;
  /** Given on stdin. */
  user: string;
  /** Whether a part had to be left out (an image). */
  leftOutImages: boolean;
}

const ROLE_LABELS: Readonly<Record<Message['role'], string>> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' };

/** A message's text, with tool calls and results written out, since Claude Code takes one prompt. */
function renderedText(message: Message): string {
  if (message.role === 'tool')
    return message.content.map((part) => `[${part.toolName} ${part.toolCallId}${part.isError ? ', failed' : ''}]\n${part.output}`).join('\n\n');
  if (message.role === 'assistant' && Array.isArray(message.content))
    return message.content
      .map((part) => (part.type === 'text' ? part.text : `[asked for ${part.toolName} (${part.toolCallId}) with ${JSON.stringify(part.input)}]`))
      .join('\n');
  return messageText(message);
}

/**
 * A chat request as one Claude Code prompt: the system messages become the system prompt; a single
 * user message is the prompt as it is, a longer conversation is written out turn by turn, ending
 * with the instruction to answer its last message. `jsonInWords` adds the request for JSON when a
 * reply must be JSON without a schema to hold it to.
 */
export function buildChatPrompt(messages: readonly Message[], options: { jsonInWords: boolean }): ChatPrompt {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const conversation = messages.filter((message) => message.role !== 'system');
  const leftOutImages = conversation.some((message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'image'));
  const only = conversation.length === 1 ? conversation[0] : undefined;
  const body =
    only !== undefined && only.role === 'user'
      ? renderedText(only)
      : [
          'The conversation so far:',
          ...conversation.map((message) => `${ROLE_LABELS[message.role]}:\n${renderedText(message)}`),
          'Answer the last user message.',
        ].join('\n\n');
  return {
    system: system.length > 0 ? system.join('\n\n') : DEFAULT_CHAT_SYSTEM_PROMPT,
    user: options.jsonInWords ? `${body}\n\nReply with JSON only, no other text.` : body,
    leftOutImages,
  };
}
