import { renderHarnessChatPrompt } from '../src/index';

describe('renderHarnessChatPrompt', () => {
  it('keeps the system text apart and a lone user message as it is', () => {
    expect(
      renderHarnessChatPrompt([
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: '  ' },
        { role: 'user', content: 'What is 2+2?' },
      ]),
    ).toEqual({ system: 'Be brief.', prompt: 'What is 2+2?' });
  });

  it('writes a longer conversation as a labelled transcript, tool calls and results as text', () => {
    const { system, prompt } = renderHarnessChatPrompt([
      { role: 'user', content: 'Look it up.' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: 'found', isError: false }] },
    ]);
    expect(system).toBeUndefined();
    expect(prompt).toBe(
      [
        'The conversation so far:',
        'User:\nLook it up.',
        'Assistant:\n[called search (c1) with {"q":"x"}]',
        'Tool (search, c1):\nfound',
        'Reply to the last message as the assistant.',
      ].join('\n\n'),
    );
  });
});
