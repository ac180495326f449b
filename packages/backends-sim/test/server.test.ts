import { createSimulatorServer, type SimulatorServer } from '../src/index';
import { extract, GOOD_SKILL, hardScore, syntheticItems, systemPrompt, userPrompt } from './helpers';

const items = syntheticItems();
let server: SimulatorServer;

beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, seed: 7, noise: 0, items });
});
afterAll(async () => {
  await server.close();
});

const post = (body: unknown, path = '/chat/completions') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const item = items[10] as { question: string; references: string[] };
const chat = {
  model: 'sim-target',
  messages: [
    { role: 'system', content: systemPrompt(GOOD_SKILL) },
    { role: 'user', content: userPrompt(item.question) },
  ],
};

describe('the OpenAI-compatible simulator server', () => {
  it('listens on 127.0.0.1 only by default', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('lists both simulated models', async () => {
    const response = await fetch(`${server.url}/models`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string }> };
    expect(body.object).toBe('list');
    expect(body.data.map((model) => model.id)).toEqual(['sim-target', 'sim-optimizer']);
    expect(body.data[0]?.owned_by).toMatch(/simulated/);
  });

  it('answers a chat completion', async () => {
    const response = await post(chat);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      object: string;
      model: string;
      choices: Array<{ message: { role: string; content: string }; finish_reason: string }>;
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('sim-target');
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(hardScore(body.choices[0]?.message.content ?? '', item.references)).toBe(1);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    // Deterministic over HTTP too.
    const again = (await (await post(chat)).json()) as typeof body;
    expect(again.choices[0]?.message.content).toBe(body.choices[0]?.message.content);
  });

  it('answers a body with fields it does not know, at the top, in messages and in content parts', async () => {
    const extended = {
      ...chat,
      service_tier: 'flex',
      future_option: { nested: true },
      messages: [
        { ...chat.messages[0], name: 'system-author' },
        { role: 'user', content: [{ type: 'text', text: userPrompt(item.question), cache_hint: 'x' }], name: 'ann' },
      ],
    };
    const response = await post(extended);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    const plain = (await (await post(chat)).json()) as typeof body;
    expect(body.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
  });

  it('streams a chat completion as server-sent events', async () => {
    const response = await post({ ...chat, stream: true, stream_options: { include_usage: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => block.slice('data: '.length));
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events.slice(0, -1).map(
      (data) =>
        JSON.parse(data) as {
          object: string;
          choices: Array<{ delta: { content?: string; role?: string }; finish_reason: string | null }>;
          usage?: { total_tokens: number } | null;
        },
    );
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(extract(text)).toBe(item.references[0]);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toBe(true);
    expect(chunks[chunks.length - 1]?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams without a usage chunk unless asked', async () => {
    const text = await (await post({ ...chat, stream: true })).text();
    expect(text).not.toMatch(/"total_tokens"/);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('maps tool calls and tool results both ways', async () => {
    const tools = [
      {
        type: 'function',
        function: { name: 'search', description: 'web search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
      },
    ];
    const first = (await (await post({ ...chat, tools })).json()) as {
      choices: Array<{ message: { tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }> }; finish_reason: string }>;
    };
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.function.name).toBe('search');
    expect(JSON.parse(call?.function.arguments ?? '{}')).toEqual({ query: item.question });
    const second = (await (
      await post({
        ...chat,
        tools,
        messages: [...chat.messages, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call?.id, content: 'results' }],
      })
    ).json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(hardScore(second.choices[0]?.message.content ?? '', item.references)).toBe(1);
  });

  it('accepts content parts with images', async () => {
    const response = await post({
      model: 'sim-target',
      messages: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'text', text: userPrompt(item.question) },
          ],
        },
      ],
    });
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(hardScore(body.choices[0]?.message.content ?? '', item.references)).toBe(1);
  });

  it('routes the optimizer model id to the optimizer role', async () => {
    const body = (await (await post({ model: 'sim-optimizer', messages: [{ role: 'user', content: 'Tell me a joke.' }] })).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(body.choices[0]?.message.content).toMatch(/simulated optimizer/);
  });

  it('answers an unknown model with a 404 OpenAI-style error', async () => {
    const response = await post({ ...chat, model: 'gpt-4o' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string; type: string; code: string; param: string } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: 'model' });
    expect(body.error.message).toMatch(/gpt-4o/);
    expect(body.error.message).not.toContain('did you mean');
    // A slip of a served id gets the nearest one suggested.
    const slip = (await (await post({ ...chat, model: 'sim-optimiser' })).json()) as { error: { message: string } };
    expect(slip.error.message).toContain('did you mean `sim-optimizer`?');
  });

  it('answers malformed JSON with a 400', async () => {
    const response = await post('{"model": "sim-target", "messages": [');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string } };
    expect(body.error.type).toBe('invalid_request_error');
  });

  it('answers a bad request shape with a 400', async () => {
    expect((await post({ model: 'sim-target', messages: [] })).status).toBe(400);
    expect((await post({ model: 'sim-target', messages: [{ role: 'wizard', content: 'x' }] })).status).toBe(400);
    expect((await post({ messages: [{ role: 'user', content: 'x' }] })).status).toBe(400);
  });

  it('answers unknown routes and methods', async () => {
    expect((await fetch(`${server.origin}/v2/whatever`)).status).toBe(404);
    expect((await fetch(`${server.url}/chat/completions`)).status).toBe(405);
  });
});
