import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest, type TaskItem } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, type CursorBackendConfigInput } from '../src/index';
import { startRecordingModel, type RecordingModel } from './recording-model';
import { installSimCursorAgent } from './sim-cursor-agent';

// The backend driving a stand-in cursor-agent that plays Cursor's protocol with `sim serve` as its
// model: what the fake harness cannot show — that the skill placements reach the model, that a tool
// round trip runs through the stream, and that the usage the backend reports is what the model served.

const ITEM: TaskItem = { id: 'cursor-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const SKILL_MARKER = 'SKILL-MARKER-c0e1';
const SKILL = `# Counting skill\n- Count carefully and answer with digits. (${SKILL_MARKER})\n- Give only the number inside <answer></answer> tags, with no explanations.`;
const PROMPT = 'Read `task.md` in your working directory: it holds your task. End your reply with your final answer inside <answer></answer>.';

let root: string;
let model: RecordingModel;
let command: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'cursor-sim-agent-')));
  model = await startRecordingModel([ITEM]);
  command = await installSimCursorAgent(root, model.url);
});
afterAll(async () => {
  await model.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  model.exchanges.length = 0;
});

const runner = (config: CursorBackendConfigInput = {}, environment: Record<string, string> = { CURSOR_API_KEY: 'key_sim' }) =>
  createBackend({ path: command, ...config }, { environment, rateLimiters: createRateLimiterRegistry() }).createAgentRunner({
    role: 'target',
    modelId: 'sim-target',
  });

async function request(overrides: Partial<AgentRunRequest> = {}): Promise<AgentRunRequest> {
  return {
    skill: SKILL,
    prompt: PROMPT,
    workspace: await mkdtemp(path.join(root, 'workspace-')),
    files: [{ path: 'task.md', content: `${ITEM.question}\n` }],
    timeoutMs: 30_000,
    purpose: 'rollout',
    ...overrides,
  };
}

const systemTexts = () => model.exchanges.map((exchange) => String(exchange.request.messages?.find((message) => message.role === 'system')?.content ?? ''));
const servedUsage = () =>
  model.exchanges.reduce(
    (sum, exchange) => ({
      inputTokens: sum.inputTokens + (exchange.response.usage?.prompt_tokens ?? 0),
      outputTokens: sum.outputTokens + (exchange.response.usage?.completion_tokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );

describe('@skillopt/backends-cursor with a stand-in cursor-agent on sim serve', () => {
  it('runs a tool round trip (task.md read through the stream) and answers with the skill in AGENTS.md reaching the model; usage as served', async () => {
    const result = await runner().run(await request());
    expect(result.finalText).toContain('<answer>8</answer>');
    expect(model.exchanges).toHaveLength(2);
    expect(model.exchanges[0]?.response.choices?.[0]?.message?.tool_calls).toHaveLength(1);
    expect(result.transcript.filter((event) => event.type === 'tool_call').map((event) => event.subtype)).toEqual(['started', 'completed']);
    for (const text of systemTexts()) expect(text).toContain(SKILL_MARKER);
    expect(result.usage).toEqual(servedUsage());
    expect(result.usage.estimated).toBeUndefined();
  });

  it('reaches the model with the skill as an always-applied project rule too', async () => {
    const result = await runner({ skill_placement: 'cursor-rules' }).run(await request());
    expect(result.finalText).toContain('<answer>8</answer>');
    expect(systemTexts()[0]).toContain('/.cursor/rules/skillopt-target.mdc:');
    expect(systemTexts()[0]).toContain(SKILL_MARKER);
  });

  it('answers a plain task (a chat call, its config denying reads): one request offering no tools, its usage as served', async () => {
    const chat = createBackend({ path: command }, { environment: { CURSOR_API_KEY: 'key_sim' }, rateLimiters: createRateLimiterRegistry() }).createChatModel({
      role: 'target',
      modelId: 'sim-target',
    });
    const result = await chat.generate({ messages: [{ role: 'user', content: `${ITEM.question} Answer inside <answer></answer>.` }], purpose: 'rollout' });
    expect(result.text).toMatch(/<answer>.+<\/answer>/);
    expect(model.exchanges).toHaveLength(1);
    expect(model.exchanges[0]?.request.tools).toBeUndefined();
    expect(result.usage).toEqual(servedUsage());
  });

  it('reports a model it cannot reach as a retryable connection error, never an answer', async () => {
    const directory = await mkdtemp(path.join(root, 'unreachable-'));
    const unreachable = await installSimCursorAgent(directory, 'http://127.0.0.1:9/v1');
    const error = await createBackend({ path: unreachable }, { environment: { CURSOR_API_KEY: 'key_sim' }, rateLimiters: createRateLimiterRegistry() })
      .createAgentRunner({ role: 'target' })
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-connection', retryable: true, provider: 'cursor' });
  });
});
