import { messageText, type Message } from '@skillopt/contract';

const ROLE_LABELS: Readonly<Record<Message['role'], string>> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' };

/**
 * A conversation as the one prompt `codex exec` reads on stdin: Codex has no system prompt of the
 * caller's, so the system messages come first, as they are; then a lone user message as it is, or
 * a longer conversation as a labelled transcript that ends by asking for the next reply. Image
 * parts are left out (a chat call attaches no files); tool calls and results are written as text.
 */
export function renderChatPrompt(messages: readonly Message[]): string {
  const system = messages.filter((message) => message.role === 'system').map(messageText);
  const rest = messages.filter((message) => message.role !== 'system');
  const sections = system.filter((text) => text.trim() !== '');
  const only = rest[0];
  if (rest.length === 1 && only?.role === 'user') sections.push(messageText(only));
  else {
    sections.push(['The conversation so far:', ...rest.map(renderTurn)].join('\n\n'));
    sections.push('Reply to the last message as the assistant.');
  }
  return sections.join('\n\n');
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
