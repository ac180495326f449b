import { ProviderError } from '@skillopt/contract';
import { z } from 'zod';
import { parseStructuredReply, requestStructuredReply, scanJsonCandidates, stripReasoningAndFences, truncatedJsonRepairs } from '../src/index';
import { createScriptedOptimizerDouble, noAbort } from './scripted-optimizer-double';

const anyObject = z.record(z.string(), z.unknown());
const editsReply = z.object({
  edits: z.array(z.object({ op: z.string(), content: z.string() })),
});

describe('parseStructuredReply', () => {
  test.each([
    ['Some text\n```json\n{"key": "value", "num": 42}\n```\nmore text', { key: 'value', num: 42 }],
    ['The result is {"answer": "yes", "score": 0.95}.', { answer: 'yes', score: 0.95 }],
    ['```json\n{"source": "fence"}\n```\nThen also {"source": "bare"}', { source: 'fence' }],
    ['```json\nnot json at all\n```\nAnswer: {"fallback": "yes"}', { fallback: 'yes' }],
    ['{"empty": {}}', { empty: {} }],
    ['{"message": "hello\\nworld"}', { message: 'hello\nworld' }],
    ['note "{wrong: 1}" then actual {"edit": "right"}', { edit: 'right' }],
    ['note {x} then {"a":1}', { a: 1 }],
  ])('finds the object in %j', (text, expected) => {
    expect(parseStructuredReply(text, anyObject)).toEqual({ ok: true, value: expected, repaired: false });
  });

  test.each(['Just plain text without JSON.', '', '```\nplain code block\n```', 'The literal string "{op: delete}" appears in prose.'])(
    'reports no value in %j',
    (text) => {
      expect(parseStructuredReply(text, anyObject).ok).toBe(false);
    },
  );

  test('a <think> block with braces before the JSON is ignored', () => {
    const reply = '<think>Maybe {"edits": "no"} or {x}? Let me think.</think>\n{"edits": [{"op": "append", "content": "- rule"}]}';
    expect(parseStructuredReply(reply, editsReply)).toEqual({ ok: true, value: { edits: [{ op: 'append', content: '- rule' }] }, repaired: false });
  });

  test('prose braces before the JSON do not hide it', () => {
    const reply = 'I considered {a few options} and {"not": "this"}; final answer:\n{"edits": [{"op": "append", "content": "x"}]} done {ok}';
    const parsed = parseStructuredReply(reply, editsReply);
    expect(parsed).toEqual({ ok: true, value: { edits: [{ op: 'append', content: 'x' }] }, repaired: false });
  });

  test('a value wrapped in another object is found inside it', () => {
    const parsed = parseStructuredReply('{"patch": {"edits": [{"op": "append", "content": "x"}]}}', editsReply);
    expect(parsed.ok && parsed.value.edits).toEqual([{ op: 'append', content: 'x' }]);
  });

  test('a truncated reply keeps only its complete edits', () => {
    const reply = '{"reasoning": "r", "edits": [{"op": "append", "content": "one"}, {"op": "append", "content": "two"}, {"op": "app';
    expect(parseStructuredReply(reply, editsReply)).toEqual({
      ok: true,
      value: {
        edits: [
          { op: 'append', content: 'one' },
          { op: 'append', content: 'two' },
        ],
      },
      repaired: true,
    });
  });

  test('a truncated string is closed when nothing else works', () => {
    const parsed = parseStructuredReply('{"guidance": "always check the uni', z.object({ guidance: z.string() }));
    expect(parsed).toEqual({ ok: true, value: { guidance: 'always check the uni' }, repaired: true });
  });

  test.each([
    ['trailing commas', '{"edits": [{"op": "append", "content": "x",},],}'],
    ['single quotes', "{'edits': [{'op': 'append', 'content': 'x'}]}"],
    ['unquoted keys', '{edits: [{op: "append", content: "x"}]}'],
    ['comments, one with a brace in it', '{"edits": [ // the one edit {\n {"op": "append", "content": "x"} /* done */ ]}'],
    ['a code fence around JSON with a slip', '```json\n{"edits": [{"op": "append", "content": "x",}]}\n```'],
    ['a missing closing brace', '{"edits": [{"op": "append", "content": "x"}]'],
    ['missing closing brackets after a slip', "{'edits': [{'op': 'append', 'content': 'x'}"],
    ['prose around JSON with slips', "Here it is: {'edits': [{'op': 'append', 'content': 'x'},]} Hope that helps {ok}"],
  ])('repairs %s', (_slip, text) => {
    expect(parseStructuredReply(text, editsReply)).toEqual({ ok: true, value: { edits: [{ op: 'append', content: 'x' }] }, repaired: true });
  });

  test('a repaired value still has to pass the schema', () => {
    const parsed = parseStructuredReply("{'edits': [{'op': 'append',}]}", editsReply);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain('edits.0.content');
  });

  test('a value of the wrong shape is reported with the schema problem', () => {
    const parsed = parseStructuredReply('{"edits": null}', editsReply);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain('edits');
  });

  test('scanning is linear even with thousands of unmatched braces', () => {
    const text = `${'{'.repeat(20_000)} [1, 2, 3]`;
    const scan = scanJsonCandidates(text);
    expect(scan.spans).toEqual([{ start: 20_001, end: 20_010 }]);
    expect(parseStructuredReply(text, z.array(z.number()))).toEqual({ ok: true, value: [1, 2, 3], repaired: false });
  });

  test('helpers: fence lines and reasoning are stripped; complete values need no repair', () => {
    expect(stripReasoningAndFences('<thinking>{a}</thinking>```json\n{"a":1}\n```')).toBe('\n{"a":1}\n');
    expect(truncatedJsonRepairs('{"a": 1}')).toEqual([]);
  });
});

describe('requestStructuredReply', () => {
  const request = (model: ReturnType<typeof createScriptedOptimizerDouble>) =>
    requestStructuredReply({ model, signal: noAbort(), prompt: 'rank', messages: [{ role: 'user', content: 'prompt' }], schema: editsReply });

  test('re-asks once with the problem appended, then succeeds', async () => {
    const model = createScriptedOptimizerDouble({
      reply: (_call, index) => (index === 0 ? 'I cannot decide.' : '{"edits": [{"op": "append", "content": "x"}]}'),
    });
    const result = await request(model);
    expect(result).toEqual({
      ok: true,
      value: { value: { edits: [{ op: 'append', content: 'x' }] }, repaired: false },
      attempts: 2,
      usage: { inputTokens: 20, outputTokens: 10 },
    });
    expect(model.calls[1]?.messages).toEqual(['prompt', 'I cannot decide.', expect.stringContaining('no JSON value was found')]);
  });

  test('a reply with JSON slips is repaired with no re-ask, and the repair is counted', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => "```json\n{'edits': [{'op': 'append', 'content': 'x',},],\n```" });
    const result = await request(model);
    expect(result).toEqual({
      ok: true,
      value: { value: { edits: [{ op: 'append', content: 'x' }] }, repaired: true },
      attempts: 1,
      usage: { inputTokens: 10, outputTokens: 5 },
      repairedReplies: 1,
    });
    expect(model.calls).toHaveLength(1);
  });

  test('garbage is re-asked once, and garbage again fails the stage', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => 'I would rather not answer in JSON today.' });
    const result = await request(model);
    expect(result).toMatchObject({ ok: false, stage: 'rank', attempts: 2, reason: expect.stringContaining('no JSON value was found') });
    expect(model.calls).toHaveLength(2);
  });

  test('after the re-ask fails too, the stage fails explicitly', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '{"edits": "none"}' });
    const result = await request(model);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result).toMatchObject({ stage: 'rank', prompt: 'rank', attempts: 2, usage: { inputTokens: 20, outputTokens: 10 } });
      expect(result.reason).toContain('edits');
    }
    expect(model.calls).toHaveLength(2);
  });

  test('provider errors propagate instead of becoming a stage failure', async () => {
    const error = new ProviderError({ code: 'provider-unavailable', message: 'down', provider: 'x', retryable: true });
    const model = createScriptedOptimizerDouble({
      reply: () => {
        throw error;
      },
    });
    await expect(request(model)).rejects.toBe(error);
  });

  test('an aborted signal stops before any call', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    const model = createScriptedOptimizerDouble({ reply: () => '{}' });
    await expect(
      requestStructuredReply({ model, signal: controller.signal, prompt: 'rank', messages: [{ role: 'user', content: 'p' }], schema: editsReply }),
    ).rejects.toThrow('stopped');
    expect(model.calls).toHaveLength(0);
  });
});
