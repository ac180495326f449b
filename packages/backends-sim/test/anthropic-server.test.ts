import { createSimulatedPromptCache, createSimulatorServer, type SimulatorServer } from '../src/index';
import { GOOD_SKILL, extract, hardScore, syntheticItems, systemPrompt, userPrompt } from './helpers';

const items = syntheticItems();
let server: SimulatorServer;

beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, seed: 7, noise: 0, items });
});
afterAll(async () => {
  await server.close();
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'dummy', 'anthropic-version': '2023-06-01', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const item = items[10] as { question: string; references: string[] };

/** A rollout as the Anthropic backend sends it: the skill in a cached system block. */
function rollout(skill: string, question: string, extra: Record<string, unknown> = {}) {
  return {
    model: 'sim-target',
    max_tokens: 1024,
    system: [{ type: 'text', text: systemPrompt(skill), cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: userPrompt(question) }],
    ...extra,
  };
}

interface MessageBody {
  id: string;
  type: string;
  role: string;
  model: string;
  content: Array<{ type: string; text?: string; id?: string; name?: string; input?: unknown; thinking?: string; signature?: string }>;
  stop_reason: string;
  stop_sequence: null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    output_tokens_details?: { thinking_tokens: number };
  };
}

const textOf = (body: MessageBody): string =>
  body.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');

describe('the simulator speaks the Anthropic Messages API', () => {
  it('answers a non-streamed message in the documented shape', async () => {
    const response = await post(rollout(GOOD_SKILL, item.question));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('request-id')).toMatch(/^req_sim_/);
    const body = (await response.json()) as MessageBody;
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: 'sim-target', stop_reason: 'end_turn', stop_sequence: null });
    expect(body.id).toMatch(/^msg_sim_/);
    expect(hardScore(textOf(body), item.references)).toBe(1);
    expect(body.usage.input_tokens + body.usage.cache_creation_input_tokens + body.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBeGreaterThan(0);
  });

  it('answers a body with fields it does not know, at the top, in messages and in blocks', async () => {
    const plain = rollout(GOOD_SKILL, item.question);
    const extended = {
      ...plain,
      service_tier: 'auto',
      future_option: { nested: true },
      system: [{ ...plain.system[0], citations: null }],
      messages: [{ role: 'user', content: [{ type: 'text', text: userPrompt(item.question), future_field: 1 }], future_field: 2 }],
    };
    const response = await post(extended);
    expect(response.status).toBe(200);
    expect(textOf((await response.json()) as MessageBody)).toBe(textOf((await (await post(plain)).json()) as MessageBody));
  });

  it('simulates a prompt cache keyed by the cached prefix: the second call with the same system prompt reads it', async () => {
    const skill = `${GOOD_SKILL}\n- A rule only this test uses, so the prefix is new.\n`;
    const first = (await (await post(rollout(skill, (items[1] as { question: string }).question))).json()) as MessageBody;
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);

    const second = (await (await post(rollout(skill, (items[2] as { question: string }).question))).json()) as MessageBody;
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBeGreaterThan(0); // the question is after the breakpoint

    // Another skill is another prefix; no cache_control, no caching at all.
    const other = (await (await post(rollout(`${skill}\n- One more rule.\n`, item.question))).json()) as MessageBody;
    expect(other.usage.cache_read_input_tokens).toBe(0);
    const plain = rollout(skill, item.question);
    plain.system = [{ type: 'text', text: systemPrompt(skill) }] as typeof plain.system;
    const uncached = (await (await post(plain)).json()) as MessageBody;
    expect(uncached.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it('keeps caches apart per model and forgets entries after five minutes', () => {
    let time = 0;
    const cache = createSimulatedPromptCache(() => time);
    const request = {
      system: [{ type: 'text', text: 'a long skill '.repeat(50), cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'q' }],
    };
    expect(cache.account('sim-target', request).cacheReadInputTokens).toBe(0);
    expect(cache.account('sim-target', request).cacheReadInputTokens).toBeGreaterThan(0);
    expect(cache.account('sim-optimizer', request).cacheReadInputTokens).toBe(0);
    time += 5 * 60_000 + 1;
    expect(cache.account('sim-target', request).cacheReadInputTokens).toBe(0);
  });

  it('streams the documented server-sent events', async () => {
    const response = await post(rollout(GOOD_SKILL, item.question, { stream: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => {
        const [eventLine, dataLine] = block.split('\n');
        const data = JSON.parse((dataLine ?? '').replace(/^data: /, '')) as Record<string, unknown>;
        expect(data.type).toBe((eventLine ?? '').replace(/^event: /, ''));
        return data as {
          type: string;
          index?: number;
          delta?: { type?: string; text?: string; stop_reason?: string };
          usage?: MessageBody['usage'];
          message?: MessageBody;
        };
      });
    const types = events.map((event) => event.type).filter((type) => type !== 'ping');
    expect(types[0]).toBe('message_start');
    expect(types.slice(1, 2)).toEqual(['content_block_start']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const text = events
      .filter((event) => event.type === 'content_block_delta' && event.delta?.type === 'text_delta')
      .map((event) => event.delta?.text ?? '')
      .join('');
    expect(extract(text)).toBe(item.references[0]);
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta?.delta?.stop_reason).toBe('end_turn');
    expect(delta?.usage?.output_tokens).toBeGreaterThan(0);
    expect(events[0]?.message?.usage.input_tokens).toBeGreaterThanOrEqual(0);
  });

  it('routes by model id: the optimizer id answers as the optimizer', async () => {
    const body = (await (
      await post({ model: 'sim-optimizer', max_tokens: 512, messages: [{ role: 'user', content: 'Tell me a joke.' }] })
    ).json()) as MessageBody;
    expect(body.model).toBe('sim-optimizer');
    expect(textOf(body)).toMatch(/simulated optimizer/);
  });

  it('round-trips tool_use and tool_result', async () => {
    const tools = [
      { name: 'search', description: 'web search', input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    ];
    const first = (await (await post(rollout(GOOD_SKILL, item.question, { tools }))).json()) as MessageBody;
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name: 'search', input: { query: item.question } });
    const base = rollout(GOOD_SKILL, item.question, { tools });
    const second = (await (
      await post({
        ...base,
        messages: [
          ...base.messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id, content: 'results' }] },
        ],
      })
    ).json()) as MessageBody;
    expect(second.stop_reason).toBe('end_turn');
    expect(hardScore(textOf(second), item.references)).toBe(1);
  });

  it('returns a thinking block, apart from the text, when thinking is enabled', async () => {
    const body = (await (
      await post(rollout(GOOD_SKILL, item.question, { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } }))
    ).json()) as MessageBody;
    expect(body.content[0]).toMatchObject({ type: 'thinking' });
    expect(body.content[0]?.signature).toMatch(/^sim-signature-/);
    expect(hardScore(textOf(body), item.references)).toBe(1);
    expect(body.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
  });

  it('rejects a tool loop that drops its thinking block, as the real API does', async () => {
    const tools = [{ name: 'search', description: '', input_schema: { type: 'object', properties: { query: { type: 'string' } } } }];
    const base = rollout(GOOD_SKILL, item.question, { tools, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } });
    const response = await post({
      ...base,
      messages: [
        ...base.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'search', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] },
      ],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/thinking block/);
  });

  it('accepts image blocks (opaque to the simulated model)', async () => {
    const body = (await (
      await post({
        ...rollout(GOOD_SKILL, item.question),
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
              { type: 'text', text: userPrompt(item.question) },
            ],
          },
        ],
      })
    ).json()) as MessageBody;
    expect(hardScore(textOf(body), item.references)).toBe(1);
  });

  it("answers errors in Anthropic's shape", async () => {
    const unknown = await post({ ...rollout(GOOD_SKILL, item.question), model: 'claude-sonnet-4-6' });
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as { type: string; error: { type: string; message: string }; request_id: string };
    expect(unknownBody).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(unknownBody.error.message).toMatch(/claude-sonnet-4-6/);
    const slip = (await (await post({ ...rollout(GOOD_SKILL, item.question), model: 'Sim-Targt' })).json()) as { error: { message: string } };
    expect(slip.error.message).toContain('did you mean `sim-target`?');

    const malformed = await post('{"model": "sim-target", "messages": [');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');

    const noMaxTokens = await post({ model: 'sim-target', messages: [{ role: 'user', content: 'hi' }] });
    expect(noMaxTokens.status).toBe(400);
    expect(((await noMaxTokens.json()) as { error: { message: string } }).error.message).toMatch(/max_tokens/);

    expect((await post({ model: 'sim-target', max_tokens: 10, messages: [] })).status).toBe(400);
    expect((await post({ model: 'sim-target', max_tokens: 10, messages: [{ role: 'wizard', content: 'x' }] })).status).toBe(400);
    expect((await post({ ...rollout(GOOD_SKILL, 'q'), thinking: { type: 'enabled', budget_tokens: 2048 } })).status).toBe(400); // budget >= max_tokens

    const tooManyBreakpoints = Array.from({ length: 5 }, (_, index) => ({ type: 'text', text: `part ${index}`, cache_control: { type: 'ephemeral' } }));
    expect((await post({ ...rollout(GOOD_SKILL, 'q'), system: tooManyBreakpoints })).status).toBe(400);

    const wrongMethod = await fetch(`${server.origin}/v1/messages`);
    expect(wrongMethod.status).toBe(405);
    expect(((await wrongMethod.json()) as { type: string }).type).toBe('error');
  });

  it('leaves the OpenAI routes as they were', async () => {
    const response = await fetch(`${server.url}/models`);
    expect(response.status).toBe(200);
  });
});
