import { messageText, type Message } from '@skillopt/contract';
import { renderConversationTurn } from './conversation-turn.js';

/** A chat call as a CLI harness takes it: the caller's system text apart, the rest as one prompt. */
export interface HarnessChatPrompt {
  /** The system messages, joined; undefined when there are none (or only blank ones). */
  system: string | undefined;
  /** What goes to stdin: a lone user message as it is, or a longer conversation as a labelled transcript. */
  prompt: string;
}

/**
 * A conversation as one harness run: the system messages apart (each harness puts them where its
 * CLI takes a system prompt), so the user's text reaches the model as the user's, unchanged; a
 * longer conversation is written as a labelled transcript that ends by asking for the next reply.
 * Image parts are left out (a chat call attaches no files); tool calls and results are written as text.
 */
export function renderHarnessChatPrompt(messages: readonly Message[]): HarnessChatPrompt {
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
        : ['The conversation so far:', ...rest.map(renderConversationTurn), 'Reply to the last message as the assistant.'].join('\n\n');
  return { system: system.length === 0 ? undefined : system.join('\n\n'), prompt };
}
