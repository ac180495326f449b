import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { createSimulatorServer, type SimulatorServer } from '../src/index';
import { GOOD_SKILL, hardScore, syntheticItems, systemPrompt, userPrompt } from './helpers';

const items = syntheticItems();
const item = items[10] as { question: string; references: string[] };
let server: SimulatorServer;
let client: OpenAI;

beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, seed: 7, noise: 0, items });
  client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});

const rollout = { model: 'sim-target', instructions: systemPrompt(GOOD_SKILL), input: userPrompt(item.question) };

describe('the Responses API of the simulator server (real openai SDK)', () => {
  it('answers a plain request with the skill applied, usage included', async () => {
    const response = await client.responses.create(rollout);
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.model).toBe('sim-target');
    expect(hardScore(response.output_text, item.references)).toBe(1);
    expect(response.usage?.total_tokens).toBe((response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0));
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
  });

  it('reads developer and system items in input as the system prompt, as it reads instructions', async () => {
    const asInstructions = await client.responses.create(rollout);
    const asItems = await client.responses.create({
      model: 'sim-target',
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: systemPrompt(GOOD_SKILL) }] },
        { role: 'user', content: [{ type: 'input_text', text: userPrompt(item.question) }] },
      ],
    });
    const asSystem = await client.responses.create({
      model: 'sim-target',
      input: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        { role: 'user', content: userPrompt(item.question) },
      ],
    });
    expect(asItems.output_text).toBe(asInstructions.output_text);
    expect(asSystem.output_text).toBe(asInstructions.output_text);
  });

  it('streams named events with increasing sequence numbers, ending with the whole response', async () => {
    const plain = await client.responses.create(rollout);
    const stream = await client.responses.create({ ...rollout, stream: true });
    const types: string[] = [];
    const sequence: number[] = [];
    let deltas = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(sequence).toEqual(sequence.map((_, index) => index));
    expect(deltas).toBe(plain.output_text);
    expect(completed?.usage?.output_tokens).toBe(plain.usage?.output_tokens);
    const message = completed?.output[0];
    expect(message?.type === 'message' && message.content[0]?.type === 'output_text' ? message.content[0].text : undefined).toBe(plain.output_text);
  });

  it('answers a text.format json_schema request with text of that shape', async () => {
    const schema = {
      type: 'object',
      properties: { final_response: { type: 'string' }, final_answer: { type: 'string' } },
      required: ['final_response', 'final_answer'],
      additionalProperties: false,
    };
    const response = await client.responses.create({ ...rollout, text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } } });
    const parsed = JSON.parse(response.output_text) as { final_response: string; final_answer: string };
    expect(Object.keys(parsed).sort()).toEqual(['final_answer', 'final_response']);
    expect(hardScore(parsed.final_response, item.references)).toBe(1);
    expect(hardScore(`<answer>${parsed.final_answer}</answer>`, item.references)).toBe(1);
  });

  it('accepts fields it does not know, in the body and in input items', async () => {
    const response = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...rollout,
        input: [
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_text', text: userPrompt(item.question) },
              { type: 'input_file', file_id: 'file-1' },
            ],
            extra: 1,
          },
        ],
        tools: [{ type: 'web_search', external_web_access: false }],
        tool_choice: 'auto',
        parallel_tool_calls: true,
        reasoning: { summary: 'auto', effort: 'none' },
        store: false,
        include: ['reasoning.encrypted_content'],
        prompt_cache_key: 'key',
        client_metadata: { anything: true },
        a_field_from_the_future: { nested: [1, 2] },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { output: Array<{ type: string; content?: Array<{ text: string }> }> };
    expect(body.output.map((entry) => entry.type)).toEqual(['message']);
    expect(hardScore(body.output[0]?.content?.[0]?.text ?? '', item.references)).toBe(1);
  });

  it('works under any base-URL prefix', async () => {
    const azureLike = new OpenAI({ baseURL: `${server.origin}/openai/deployments/target`, apiKey: 'k', maxRetries: 0 });
    const response = await azureLike.responses.create(rollout);
    expect(hardScore(response.output_text, item.references)).toBe(1);
  });

  it('refuses a model id it does not serve with a 404 naming the served ids', async () => {
    const refusal = await client.responses.create({ ...rollout, model: 'sim-targt' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refusal as Error).message).toMatch(/sim-targt.*did you mean `sim-target`.*serves sim-target and sim-optimizer/);
  });

  it('refuses a WebSocket upgrade on …/responses with 426 and a body saying to use HTTP', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const upgrade = httpRequest(`${server.url}/responses`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      upgrade.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      upgrade.on('upgrade', () => reject(new Error('the server accepted the upgrade')));
      upgrade.on('error', reject);
      upgrade.end();
    });
    expect(status).toBe(426);
    const parsed = JSON.parse(body) as { error: { code: string; message: string } };
    expect(parsed.error.code).toBe('upgrade_not_supported');
    expect(parsed.error.message).toMatch(/websocket.*POST …\/responses/i);
    // The server still answers plain HTTP afterwards.
    expect((await client.responses.create(rollout)).status).toBe('completed');
  });
});
