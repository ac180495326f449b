import { renderConversationTurn } from '../src/index';

describe('renderConversationTurn', () => {
  it('labels each role and writes tool calls and results as text', () => {
    expect(renderConversationTurn({ role: 'user', content: 'What is 2+2?' })).toBe('User:\nWhat is 2+2?');
    expect(
      renderConversationTurn({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'x' } },
        ],
      }),
    ).toBe('Assistant:\nLet me look.\n[called search (c1) with {"q":"x"}]');
    expect(
      renderConversationTurn({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: 'nothing', isError: true }] }),
    ).toBe('Tool (search, c1) failed:\nnothing');
  });
});
