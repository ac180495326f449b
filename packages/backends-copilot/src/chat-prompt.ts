import { messageText, type Message } from '@skillopt/contract';

/** Between two messages of a conversation, as the original's copilot_chat joined them. */
export const MESSAGE_SEPARATOR = '\n\n---\n\n';

/**
 * A conversation as one Copilot prompt (Copilot takes no system prompt of the caller's; its own
 * stays): the messages in order, joined by `---` lines, each but a user's under its role
 * (`[system]`, `[assistant]`, `[tool]`), as the original's copilot_chat wrote them. A lone system
 * and user message read `system --- user`. Image parts are left out (a chat call attaches no
 * files); tool calls and results are written as text. `closing` (a JSON instruction) comes last.
 */
export function renderChatPrompt(messages: readonly Message[], closing?: string): string {
  const parts = messages.map(renderMessage).filter((text) => text.trim() !== '');
  return [...parts, ...(closing === undefined ? [] : [closing])].join(MESSAGE_SEPARATOR);
}

function renderMessage(message: Message): string {
  if (message.role === 'user') return messageText(message);
  if (message.role === 'system') return `[system]\n${messageText(message)}`;
  if (message.role === 'tool')
    return message.content.map((part) => `[tool] ${part.toolName} (${part.toolCallId})${part.isError ? ' failed' : ''}:\n${part.output}`).join('\n\n');
  if (typeof message.content === 'string') return `[assistant]\n${message.content}`;
  const lines = message.content.map((part) =>
    part.type === 'text' ? part.text : `[called ${part.toolName} (${part.toolCallId}) with ${JSON.stringify(part.input)}]`,
  );
  return `[assistant]\n${lines.join('\n')}`;
}
