import { messageText, type Message } from '@skillopt/contract';

/** The system prompt of a chat call whose messages carry none: Pi's own is for coding sessions. */
const DEFAULT_CHAT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer the request directly.';

const ROLE_LABELS: Readonly<Record<Message['role'], string>> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' };

/** A chat call as Pi takes it: a system prompt that replaces Pi's own, and one prompt on stdin. */
export interface PiChatPrompt {
  /** The system messages, joined (or a plain assistant's prompt when there are none). */
  system: string;
  /** A lone user message as it is, or a longer conversation as a labelled transcript. */
  prompt: string;
}

/**
 * A conversation as one `pi -p`: the system messages replace Pi's system prompt; a single user
 * message is the prompt as it is; a longer conversation is written out turn by turn and ends by
 * asking for the next reply. Image parts are left out (a chat call attaches no files); tool calls
 * and results are written as text.
 */
export function renderChatPrompt(messages: readonly Message[]): PiChatPrompt {
  const system = messages
    .filter((message) => message.role === 'system')
    .map(messageText)
    .filter((text) => text.trim() !== '');
  const rest = messages.filter((message) => message.role !== 'system');
  const only = rest[0];
  const prompt =
    rest.length === 1 && only?.role === 'user'
      ? messageText(only)
      : rest.length === 0
        ? 'Reply as the assistant.'
        : ['The conversation so far:', ...rest.map(renderTurn), 'Reply to the last message as the assistant.'].join('\n\n');
  return { system: system.length === 0 ? DEFAULT_CHAT_SYSTEM_PROMPT : system.join('\n\n'), prompt };
}

function renderTurn(message: Message): string {
  const label = ROLE_LABELS[message.role];
  if (message.role === 'tool')
    return message.content.map((part) => `${label} (${part.toolName}, ${part.toolCallId})${part.isError ? ' failed' : ''}:\n${part.output}`).join('\n\n');
  if (message.role === 'assistant' && typeof message.content !== 'string') {
    const lines = message.content.map((part) =>
      part.type === 'text' ? part.text : `[called ${part.toolName} (${part.toolCallId}) with ${JSON.stringify(part.input)}]`,
    );
    return `${label}:\n${lines.join('\n')}`;
  }
  return `${label}:\n${messageText(message)}`;
}
