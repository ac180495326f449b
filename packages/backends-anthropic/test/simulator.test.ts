import type { TaskItem } from '@skillopt/contract';
import { createBackend } from '../src/index';
// Tests may reach across packages (they are exempt from the layering rule): the simulator is the
// test double of every HTTP backend.
import { createSimulatorServer, type SimulatorServer } from '../../backends-sim/src/index';

const items: TaskItem[] = [
  { id: 'q1', taskType: 'qa', question: 'How many moons does Arvandia have?', references: ['3'], answer_type: 'number' },
  { id: 'q2', taskType: 'qa', question: 'What is the sister city of Belmora?', references: ['Ottawa'], answer_type: 'name' },
];
const SKILL_PROMPT =
  'You answer trivia questions. Think step by step, then you must give a concise final answer inside <answer></answer> tags.\n\n## Skill\n# Question Answering Skill\n\n- Always give the final answer inside <answer></answer> tags.\n';

let server: SimulatorServer;
beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, seed: 3, noise: 0, items });
});
afterAll(async () => {
  await server.close();
});

function backendForSimulator(config: Record<string, unknown> = {}) {
  // A dummy key: the simulator does not check it, but the backend insists on one.
  return createBackend({ base_url: server.origin, ...config }, { environment: { ANTHROPIC_API_KEY: 'sk-ant-dummy-for-the-simulator' } });
}

describe('the Anthropic backend against `skillopt sim serve`', () => {
  it('runs target calls, and the repeated skill is read from the (simulated) prompt cache', async () => {
    const target = backendForSimulator().createChatModel({ role: 'target', modelId: 'sim-target' });
    const ask = (question: string) =>
      target.generate({
        messages: [
          { role: 'system', content: SKILL_PROMPT },
          { role: 'user', content: `## Question\n${question}` },
        ],
        purpose: 'rollout',
      });
    const first = await ask(items[0]!.question!);
    expect(first.text).toMatch(/<answer>\s*3\s*<\/answer>/);
    expect(first.finishReason).toBe('stop');
    expect(first.providerMetadata).toMatchObject({ model: 'sim-target', stopReason: 'end_turn' });
    expect(first.usage.cachedInputTokens).toBe(0);
    expect(first.providerMetadata?.cacheCreationInputTokens).toBeGreaterThan(0);

    const second = await ask(items[1]!.question!);
    expect(second.text).toMatch(/Ottawa/);
    expect(second.usage.cachedInputTokens).toBe(first.providerMetadata?.cacheCreationInputTokens);
    expect(second.usage.inputTokens).toBeGreaterThan(second.usage.cachedInputTokens ?? 0);
  });

  it('answers a request with a field the contract does not know, with warnings for it and the temperature it did not send', async () => {
    const target = backendForSimulator().createChatModel({ role: 'target', modelId: 'sim-target' });
    const request = {
      messages: [
        { role: 'system' as const, content: SKILL_PROMPT },
        { role: 'user' as const, content: `## Question\n${items[0]!.question!}` },
      ],
      purpose: 'rollout',
    };
    const reply = await target.generate({ ...request, temperature: 0.4, topK: 5 } as typeof request);
    expect(reply.text).toMatch(/<answer>\s*3\s*<\/answer>/);
    expect(reply.warnings?.map((warning) => [warning.type, warning.field])).toEqual([
      ['unknown-field', 'topK'],
      ['unsupported-setting', 'temperature'],
    ]);
    expect(target.capabilities).toMatchObject({ images: true, tools: true });
  });

  it('runs optimizer calls on the optimizer model', async () => {
    const optimizer = backendForSimulator({ optimizer: { model: 'sim-optimizer' } }).createChatModel({ role: 'optimizer' });
    expect(optimizer.modelId).toBe('sim-optimizer');
    const reply = await optimizer.generate({ messages: [{ role: 'user', content: 'Tell me a joke.' }], purpose: 'reflect' });
    expect(reply.text).toMatch(/simulated optimizer/);
  });

  it('runs a tool loop with extended thinking through the simulator', async () => {
    const target = backendForSimulator({ thinking_budget_tokens: 1024, max_output_tokens: 4096 }).createChatModel({ role: 'target', modelId: 'sim-target' });
    const tools = [
      { name: 'search', description: 'web search', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    ];
    const messages = [
      { role: 'system' as const, content: SKILL_PROMPT },
      { role: 'user' as const, content: `## Question\n${items[0]!.question}` },
    ];
    const first = await target.generate({ messages, tools, purpose: 'rollout' });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.text).not.toMatch(/Simulated thinking/);
    const call = first.toolCalls![0]!;
    const second = await target.generate({
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: first.text },
            { type: 'tool-call', ...call },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: 'search results' }] },
      ],
      tools,
      purpose: 'rollout',
    });
    expect(second.text).toMatch(/<answer>\s*3\s*<\/answer>/);
    expect(second.usage.reasoningTokens).toBeGreaterThan(0);
  });

  it('reports an unknown model as model-not-found', async () => {
    const model = backendForSimulator().createChatModel({ role: 'target', modelId: 'claude-sonnet-4-6' });
    await expect(model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'probe' })).rejects.toMatchObject({
      code: 'model-not-found',
      retryable: false,
    });
  });
});
