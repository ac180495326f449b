import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBackend, type ClaudeCodeBackendConfigInput } from '@skillopt/backends-claude-code';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { AgentRunRequest } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './helpers/deny-proxy';
import { startLoopbackModel, type LoopbackModel } from './helpers/loopback-model';
import { LOOPBACK_API_KEY, SMOKE_ITEM, TARGET_MODEL } from './helpers/smoke-session';

/**
 * @skillopt/backends-claude-code driving the real Claude Code CLI against `sim serve` on loopback:
 * a plain task, a tool round trip, the skill reaching the model in each placement, structured
 * output as a chat model, and a timeout and a crash that end as infrastructure errors.
 */
const SKILL = '# Skill\n- Marker okapi-7: give the final answer inside <answer></answer> tags.';
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'no_proxy'];

interface Session {
  model: LoopbackModel;
  proxy: DenyProxy;
  backend(config?: ClaudeCodeBackendConfigInput, origin?: string): ReturnType<typeof createBackend>;
  request(overrides?: Partial<AgentRunRequest>): Promise<AgentRunRequest>;
}

async function withSession(cli: LocatedAgentCli, body: (session: Session) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'claude-code-backend-'));
  const model = await startLoopbackModel([SMOKE_ITEM]);
  const proxy = await startDenyProxy();
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARIABLES) process.env[name] = name.toLowerCase().startsWith('no_') ? '127.0.0.1,localhost' : proxy.url;
  let workspaces = 0;
  try {
    await body({
      model,
      proxy,
      backend: (config = {}, origin = model.origin) =>
        createBackend(
          // Thinking off: the simulator takes enabled or disabled thinking, not adaptive.
          { path: cli.binary, base_url: origin, max_thinking_tokens: 0, pass_environment: PROXY_VARIABLES, ...config },
          { environment: { ANTHROPIC_API_KEY: LOOPBACK_API_KEY }, rateLimiters: createRateLimiterRegistry() },
        ),
      request: async (overrides = {}) => {
        workspaces += 1;
        const workspace = await mkdtemp(path.join(root, `workspace-${workspaces}-`));
        return {
          skill: SKILL,
          prompt: 'Read `task.md` in your working directory and answer the question in it. Follow the skill document you were given.',
          workspace,
          files: [{ path: 'task.md', content: `${SMOKE_ITEM.question}\n` }],
          timeoutMs: 90_000,
          purpose: 'rollout',
          ...overrides,
        };
      },
    });
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await model.close();
    await proxy.close();
    await rm(root, { recursive: true, force: true });
  }
}

const messagesRequests = (model: LoopbackModel) => model.exchanges.filter((exchange) => exchange.method === 'POST' && exchange.path.endsWith('/v1/messages'));
const toolResultsOf = (model: LoopbackModel) =>
  messagesRequests(model).flatMap((exchange) =>
    ((exchange.body as { messages?: Array<{ content?: unknown }> }).messages ?? []).flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((block: { type?: string }) => block.type === 'tool_result') : [],
    ),
  );

testWithAgentCli(
  'claude',
  'a plain task with the skill in CLAUDE.md: the answer, reported usage, the skill text in the request, no other host',
  async (cli) => {
    await withSession(cli, async (session) => {
      const runner = session.backend({ skill_placement: 'claude-md' }).createAgentRunner({ role: 'target', modelId: TARGET_MODEL });
      const result = await runner.run(
        await session.request({ prompt: `${SMOKE_ITEM.question}\n\nGive your final answer inside <answer></answer> tags.`, files: [] }),
      );
      expect(result.finalText).toMatch(/<answer>.+<\/answer>/);
      expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
      expect(result.usage.estimated).toBeUndefined();
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.transcript.some((event) => event.type === 'system' && event.subtype === 'init' && event.permissionMode === 'dontAsk')).toBe(true);
      expect(messagesRequests(session.model).some((exchange) => JSON.stringify(exchange.body).includes('Marker okapi-7'))).toBe(true);
      expect(session.proxy.attempts).toEqual([]);
    });
  },
);

testWithAgentCli(
  'claude',
  'a task that needs a tool round trip, with the skill as a project skill: the model reads task.md and SKILL.md through a tool',
  async (cli) => {
    await withSession(cli, async (session) => {
      const runner = session.backend().createAgentRunner({ role: 'target', modelId: TARGET_MODEL });
      const result = await runner.run(await session.request());
      expect(result.finalText).toMatch(/<answer>.+<\/answer>/);
      const toolResults = JSON.stringify(toolResultsOf(session.model));
      expect(toolResults).toContain(SMOKE_ITEM.question);
      expect(toolResults).toContain('Marker okapi-7');
      expect(result.transcript.some((event) => event.type === 'user')).toBe(true);
      expect(session.proxy.attempts).toEqual([]);
    });
  },
);

testWithAgentCli('claude', 'as a chat model: tools off, the reply held to a JSON schema through structured_output', async (cli) => {
  await withSession(cli, async (session) => {
    const model = session.backend().createChatModel({ role: 'optimizer', modelId: TARGET_MODEL });
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const reply = await model.generate({
      messages: [{ role: 'user', content: `${SMOKE_ITEM.question}\n\nGive your final answer inside <answer></answer> tags.` }],
      responseFormat: { type: 'json', schema },
      purpose: 'reflect',
    });
    expect(Object.keys(JSON.parse(reply.text) as object)).toEqual(['answer']);
    const tools = messagesRequests(session.model).map((exchange) =>
      ((exchange.body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name),
    );
    expect(tools.flat().every((name) => name === 'StructuredOutput')).toBe(true);
    expect(reply.usage.estimated).toBeUndefined();
  });
});

testWithAgentCli('claude', 'a run that outlives its time limit is a retryable process-timeout, never an answer', async (cli) => {
  await withSession(cli, async (session) => {
    const hanging = await startHangingServer();
    try {
      const runner = session.backend({}, hanging.origin).createAgentRunner({ role: 'target', modelId: TARGET_MODEL });
      await expect(runner.run(await session.request({ timeoutMs: 4_000 }))).rejects.toMatchObject({ code: 'process-timeout', retryable: true });
      expect(hanging.requests()).toBeGreaterThanOrEqual(1);
    } finally {
      await hanging.close();
    }
  });
});

testWithAgentCli('claude', 'a CLI killed mid-run is a retryable process-crashed, never an answer', async (cli) => {
  await withSession(cli, async (session) => {
    const hanging = await startHangingServer();
    try {
      const runner = session.backend({}, hanging.origin).createAgentRunner({ role: 'target', modelId: TARGET_MODEL });
      const request = await session.request();
      const pending = runner.run(request);
      await hanging.firstRequest;
      // The process this test started (through the runner) is the one whose working directory is the workspace.
      for (const pid of await processesIn(request.workspace)) process.kill(pid, 'SIGKILL');
      await expect(pending).rejects.toMatchObject({ code: 'process-crashed', retryable: true });
    } finally {
      await hanging.close();
    }
  });
});

/** A model server that takes requests and never answers: the CLI waits on it until it is stopped. */
async function startHangingServer(): Promise<{ origin: string; firstRequest: Promise<void>; requests(): number; close(): Promise<void> }> {
  let count = 0;
  let arrived: () => void = () => undefined;
  const firstRequest = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = http.createServer((request) => {
    if (request.method === 'POST') count += 1;
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstRequest,
    requests: () => count,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The pids whose working directory is `directory` (Linux /proc). */
async function processesIn(directory: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => undefined);
    if (cwd === directory) pids.push(Number(entry));
  }
  return pids;
}
