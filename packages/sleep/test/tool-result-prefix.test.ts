import { classifyPrefix } from '../src/sources/claude-code/tool-result-prefix.js';

const prefixOf = (line: string, bytes = 512) => Buffer.from(line).subarray(0, bytes);

const CURRENT_TOOL_RESULT =
  '{"parentUuid":"7c3b113b-1362-4ae4-9703-2d6ec8333f3c","isSidechain":false,"promptId":"e68103b4-d936-4394-be79-4d17b53badf6","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"What is 2+2?"}]},"uuid":"u","timestamp":"2026-11-29T06:48:50.202Z"}';

describe('the tool-result prefix test', () => {
  test('a tool result in the current layout (the real CLI’s key order) is recognised', () => {
    expect(classifyPrefix(prefixOf(CURRENT_TOOL_RESULT))).toBe('tool-result');
    expect(classifyPrefix(prefixOf(CURRENT_TOOL_RESULT, 200))).toBe('tool-result');
  });

  test('a tool result whose block names its type first, in an older layout with cwd before the message, is recognised', () => {
    const older =
      '{"parentUuid":"a","isSidechain":false,"userType":"external","cwd":"/home/user/project","sessionId":"s","version":"1.0.43","gitBranch":"main","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}';
    expect(classifyPrefix(prefixOf(older))).toBe('tool-result');
  });

  test('a prompt, an assistant’s tool call, an attachment and other records are parsed', () => {
    expect(classifyPrefix(prefixOf('{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"say hi"}}'))).toBe('parse');
    expect(
      classifyPrefix(prefixOf('{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}')),
    ).toBe('parse');
    expect(
      classifyPrefix(
        prefixOf('{"parentUuid":"a","isSidechain":false,"message":{"id":"m","type":"message","role":"assistant","content":[{"type":"tool_use"}]}}'),
      ),
    ).toBe('parse');
    expect(classifyPrefix(prefixOf('{"parentUuid":"a","isSidechain":false,"attachment":{"type":"skill_listing"},"type":"attachment"}'))).toBe('parse');
    expect(classifyPrefix(prefixOf('{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-29T06:43:30.042Z"}'))).toBe('parse');
  });

  test('an assistant record whose content starts like a tool result is parsed, not passed over', () => {
    expect(classifyPrefix(prefixOf('{"type":"assistant","message":{"role":"assistant","content":[{"tool_use_id":"t"}]}}'))).toBe('parse');
  });

  test('a prefix cut before the first block, or holding an escape, is parsed: only a certain shape is passed over', () => {
    expect(classifyPrefix(prefixOf(CURRENT_TOOL_RESULT, 150))).toBe('parse');
    expect(classifyPrefix(prefixOf('{"parentUuid":"a\\"b","type":"user","message":{"role":"user","content":[{"tool_use_id":"t"}]}}'))).toBe('parse');
    expect(classifyPrefix(prefixOf('not json at all'))).toBe('parse');
  });

  test('a sidechain record is recognised from its flag, whatever follows', () => {
    expect(classifyPrefix(prefixOf('{"parentUuid":null,"isSidechain":true,"type":"user","message":{"role":"user","content":"search"}}'))).toBe('sidechain');
  });
});
