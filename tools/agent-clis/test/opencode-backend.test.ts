import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, type OpencodeBackendConfigInput } from '@skillopt/backends-opencode';
import { ProviderError, type AgentRunRequest, type TaskItem } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './helpers/deny-proxy';
import { startSilentModel } from './helpers/silent-model';
import { startLoopbackModel, type LoopbackModel, type ModelExchange } from './helpers/loopback-model';

// @skillopt/backends-opencode driving the real OpenCode CLI against `sim serve` on loopback: what
// the backend's unit tests cannot show with a fake opencode — that the argument vector, the
// config given as OPENCODE_CONFIG_CONTENT, the isolated XDG folders, the deny-by-default agent, the
// skill placements and the transcript reader fit opencode 1.18.33 itself.

const ITEM: TaskItem = { id: 'opencode-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const SKILL_MARKER = 'SKILL-MARKER-4c1d';
// The second rule addresses the simulated model's verbose habit, so its answer is the bare number.
const SKILL = `# Counting skill\n- Count carefully and answer with digits. (${SKILL_MARKER})\n- Give only the number inside <answer></answer> tags, with no explanations.`;
const PROMPT = [
  'Read `task.md` in your working directory: it holds your task.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'End your reply with your final answer inside <answer></answer>.',
].join('\n');
const KEY = 'loopback-opencode-key-3e8b';
const COMPLETIONS = '/v1/chat/completions';

interface Session {
  model: LoopbackModel;
  proxy: DenyProxy;
  backend(config?: OpencodeBackendConfigInput, baseUrl?: string): ReturnType<typeof createBackend>;
  request(overrides?: Partial<AgentRunRequest>): AgentRunRequest;
}

/** A loopback model and a deny proxy (as the CLI's HTTP(S)_PROXY), removed after `body`. */
async function withSession(cli: LocatedAgentCli, body: (session: Session) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'opencode-backend-'));
  const model = await startLoopbackModel([ITEM]);
  const proxy = await startDenyProxy();
  const saved = { ...process.env };
  // The backend hands the CLI these by its allowlist, as a user's proxy settings.
  Object.assign(process.env, { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1,localhost' });
  let workspaces = 0;
  try {
    await body({
      model,
      proxy,
      backend: (config = {}, baseUrl = model.url) =>
        createBackend({ path: cli.binary, base_url: baseUrl, ...config }, { environment: { OPENCODE_API_KEY: KEY } }),
      request: (overrides = {}) => {
        workspaces += 1;
        const workspace = path.join(root, `workspace-${workspaces}`);
        execFileSync('mkdir', ['-p', workspace]);
        return {
          skill: SKILL,
          prompt: PROMPT,
          workspace,
          files: [{ path: 'task.md', content: `${ITEM.question}\n` }],
          timeoutMs: 120_000,
          purpose: 'rollout',
          ...overrides,
        };
      },
    });
  } finally {
    process.env = saved;
    await model.close();
    await proxy.close();
    rmSync(root, { recursive: true, force: true });
  }
}

interface CompletionsBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function?: { name?: string } }>;
}

const completions = (model: LoopbackModel): ModelExchange[] => model.exchanges.filter((exchange) => exchange.path === COMPLETIONS);
const bodyOf = (exchange: ModelExchange | undefined) => (exchange?.body ?? { messages: [] }) as CompletionsBody;
const toolNames = (exchange: ModelExchange | undefined) => (bodyOf(exchange).tools ?? []).map((tool) => tool.function?.name);

/** The tokens the simulator served, summed over its streamed replies (the chunk with `usage`). */
function servedUsage(model: LoopbackModel): { inputTokens: number; outputTokens: number } {
  let inputTokens = 0;
  let outputTokens = 0;
  for (const exchange of completions(model))
    for (const line of exchange.responseText.split('\n')) {
      if (!line.startsWith('data: {')) continue;
      const usage = (JSON.parse(line.slice('data: '.length)) as { usage?: { prompt_tokens: number; completion_tokens: number } | null }).usage;
      if (usage) {
        inputTokens += usage.prompt_tokens;
        outputTokens += usage.completion_tokens;
      }
    }
  return { inputTokens, outputTokens };
}

describe('@skillopt/backends-opencode with the real OpenCode CLI', () => {
  testWithAgentCli(
    'opencode',
    'answers a task with the skill in AGENTS.md, whose text reaches the model; tokens equal to what the simulator served; no other host',
    async (cli) => {
      await withSession(cli, async (session) => {
        const result = await session.backend().createAgentRunner({ role: 'target', modelId: 'sim-target' }).run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
        const requests = completions(session.model);
        // Read-only tools only: no shell, no edits, no sub agents, no web, no skill tool without a project skill.
        expect(toolNames(requests[0]).sort()).toEqual(['glob', 'grep', 'read']);
        const system = JSON.stringify(bodyOf(requests[0]).messages.filter((message) => message.role === 'system'));
        expect(system).toContain('Instructions from: ');
        expect(system).toContain(SKILL_MARKER);
        // --title: no title-generation request; every request is the agent's own.
        expect(requests.every((exchange) => toolNames(exchange).length > 0)).toBe(true);
        expect(result.usage.estimated).toBeUndefined();
        expect({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }).toEqual(servedUsage(session.model));
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli(
    'opencode',
    'reads task.md and the project skill with its read tool (a tool round trip), so the skill text reaches the model from the skills folder',
    async (cli) => {
      await withSession(cli, async (session) => {
        const runner = session.backend({ skill_placement: 'skills-folder' }).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const result = await runner.run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        const toolUses = result.transcript.filter((event) => event.type === 'tool_use');
        expect(toolUses.length).toBeGreaterThanOrEqual(2);
        const requests = completions(session.model);
        expect(toolNames(requests[0])).toContain('skill');
        expect(JSON.stringify(bodyOf(requests[0]))).not.toContain(SKILL_MARKER);
        const toolResults = requests.map((exchange) => JSON.stringify(bodyOf(exchange).messages.filter((message) => message.role === 'tool')));
        expect(toolResults.some((text) => text.includes(SKILL_MARKER))).toBe(true);
        expect(toolResults.some((text) => text.includes(ITEM.question as string))).toBe(true);
        expect({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }).toEqual(servedUsage(session.model));
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli('opencode', "answers a chat call with the caller's system prompt in place of OpenCode's, and no tools", async (cli) => {
    await withSession(cli, async (session) => {
      const model = session.backend().createChatModel({ role: 'judge', modelId: 'sim-target' });
      const result = await model.generate({
        messages: [
          { role: 'system', content: 'Answer the question.' },
          { role: 'user', content: `## Question\n${ITEM.question}` },
        ],
        purpose: 'judge',
      });
      expect(result.text).not.toBe('');
      expect(result.usage.estimated).toBeUndefined();
      const requests = completions(session.model);
      expect(requests).toHaveLength(1);
      expect(toolNames(requests[0])).toEqual([]);
      const system = JSON.stringify(bodyOf(requests[0]).messages.filter((message) => message.role === 'system'));
      expect(system).toContain('Answer the question.');
      expect(system).not.toContain('You are opencode');
    });
  });

  testWithAgentCli('opencode', 'turns a run whose model never answers into a retryable process-timeout at its limit, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const error = await runner.run(session.request({ timeoutMs: 8_000 })).catch((caught: unknown) => caught);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'process-timeout', retryable: true, provider: 'opencode' });
      } finally {
        await silent.close();
      }
    });
  });

  testWithAgentCli('opencode', 'turns a run killed mid-run into a retryable process-crashed, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const request = session.request({ timeoutMs: 60_000 });
        const pending = runner.run(request).catch((caught: unknown) => caught);
        // Once the model has the request, OpenCode is mid-run: kill its process (the one working in this workspace) by pid.
        while (silent.requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const processes = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
        const pids = processes.filter((line) => line.includes(request.workspace) && !line.includes(' ps ')).map((line) => Number(line.trim().split(/\s+/)[0]));
        expect(pids.length).toBeGreaterThanOrEqual(1);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        const error = await pending;
        expect(error).toMatchObject({ code: 'process-crashed', retryable: true, provider: 'opencode' });
      } finally {
        await silent.close();
      }
    });
  });
});
