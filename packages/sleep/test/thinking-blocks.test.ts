import { leadingThinkingBlocks, decodeWithoutThinking } from '../src/sources/claude-code/thinking-blocks.js';
import { readTranscriptPrefix } from '../src/sources/claude-code/tool-result-prefix.js';

// An assistant record in Claude Code 2.1.197's key order (the shared fixtures'), with extended
// thinking as the CLI records it (fixture of ours, built from the fixtures' shapes).
function assistantLine(content: unknown[]): string {
  return JSON.stringify({
    parentUuid: '72ebf346-7c4f-4d17-b7bb-280047912df3',
    isSidechain: false,
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-4-8', content, stop_reason: 'tool_use' },
    type: 'assistant',
    uuid: 'u1',
    timestamp: '2026-11-29T06:48:50.117Z',
    cwd: '/home/user/project',
  });
}

// Quotes, backslashes (one ending a string, so `\\"` closes it), newlines and non-ASCII text, as real reasoning holds.
const THINKING = { type: 'thinking', thinking: 'The test says "expected 4" \\ then C:\\path\\ and\nnext — ünïcode ✓ \\', signature: 'E'.repeat(600) };
const TEXT = { type: 'text', text: 'Running the tests — "all" of them.' };
const TOOL = { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } };

const parsed = (line: string) => JSON.parse(decodeWithoutThinking(Buffer.from(line))) as { message: { content: unknown[] }; timestamp: string; cwd: string };

describe('thinking blocks cut out of an assistant line before it is parsed', () => {
  it('leaves the reply, the tool call and every other field as JSON.parse reads them', () => {
    const line = assistantLine([THINKING, TEXT, TOOL]);
    const record = parsed(line);
    const expected = JSON.parse(line);
    expected.message.content = [TEXT, TOOL];
    expect(record).toEqual(expected);
    expect(decodeWithoutThinking(Buffer.from(line))).not.toContain('expected 4');
  });

  it('cuts several leading blocks, redacted thinking among them, and a message of thinking alone down to []', () => {
    const redacted = { type: 'redacted_thinking', data: 'EqQBCgYIARgCIkA' };
    expect(parsed(assistantLine([THINKING, redacted, TEXT])).message.content).toEqual([TEXT]);
    const alone = parsed(assistantLine([THINKING]));
    expect(alone.message.content).toEqual([]);
    expect(alone.timestamp).toBe('2026-11-29T06:48:50.117Z');
    expect(alone.cwd).toBe('/home/user/project');
  });

  it('leaves a line whole when no thinking leads its content, or a block is not certainly one', () => {
    for (const content of [[TEXT, THINKING], [TOOL], [], [{ type: 'thinking', thinking: 'x', budget: 3 }], [{ thinking: 'x', type: 'thinking' }]]) {
      expect(leadingThinkingBlocks(Buffer.from(assistantLine(content)))).toBeUndefined();
    }
    expect(leadingThinkingBlocks(Buffer.from('{"type":"user","message":{"role":"user","content":"say hi"}}'))).toBeUndefined();
  });

  it('leaves a line cut short inside its thinking whole, so JSON.parse still reports it as corrupt', () => {
    const line = assistantLine([THINKING, TEXT]);
    const truncated = line.slice(0, line.indexOf('signature') - 20);
    expect(leadingThinkingBlocks(Buffer.from(truncated))).toBeUndefined();
    expect(() => JSON.parse(decodeWithoutThinking(Buffer.from(truncated)))).toThrow(SyntaxError);
  });

  it('finds the same blocks from where the prefix reader saw the content begin', () => {
    const line = Buffer.from(assistantLine([THINKING, TEXT, TOOL]));
    const { verdict, contentStart } = readTranscriptPrefix(line.subarray(0, 512));
    expect(verdict).toBe('parse');
    expect(line.toString('latin1', (contentStart as number) - 11, contentStart)).toBe('"content":[');
    expect(leadingThinkingBlocks(line, contentStart)).toEqual(leadingThinkingBlocks(line));
  });
});
