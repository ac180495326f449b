import { messageText, type Message } from '@skillopt/contract';

const ROLE_LABELS: Readonly<Record<Message['role'], string>> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' };

/**
 * One message of a conversation written as text, for a harness that takes a chat call's
 * conversation as a single prompt: its role as a label, then its text; tool calls as
 * `[called <tool> (<id>) with <input>]`, tool results under the tool's name and call id (marked
 * when they failed). Image parts are left out.
 */
export function renderConversationTurn(message: Message): string {
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
