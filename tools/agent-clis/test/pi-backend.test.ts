import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, type PiBackendConfigInput } from '@skillopt/backends-pi';
import { ProviderError, type AgentRunRequest, type TaskItem, type Usage } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './helpers/deny-proxy';
import { startSilentModel } from './helpers/silent-model';
import { startLoopbackModel, type LoopbackModel } from './helpers/loopback-model';

// @skillopt/backends-pi driving the real Pi CLI against `sim serve` on loopback: what the
// backend's unit tests cannot show with a fake pi — that the argument vector, the run's own agent
// directory (models.json, settings.json), the skill placements and the transcript reader fit
// pi-coding-agent 0.73.1 itself.

const ITEM: TaskItem = { id: 'pi-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const SKILL_MARKER = 'SKILL-MARKER-3c9e';
// The second rule addresses the simulated model's verbose habit, so its answer is the bare number.
const SKILL = `# Counting skill\n- Count carefully and answer with digits. (${SKILL_MARKER})\n- Give only the number inside <answer></answer> tags, with no explanations.`;
const PROMPT = [
  'Read `task.md` in your working directory: it holds your task.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'End your reply with your final answer inside <answer></answer>.',
].join('\n');
const KEY = 'loopback-pi-key-5b17';

interface Session {
  model: LoopbackModel;
  proxy: DenyProxy;
  backend(config?: PiBackendConfigInput, baseUrl?: string): ReturnType<typeof createBackend>;
  request(overrides?: Partial<AgentRunRequest>): AgentRunRequest;
}

/** A loopback model and a deny proxy (as the CLI's HTTP(S)_PROXY), removed after `body`. */
async function withSession(cli: LocatedAgentCli, body: (session: Session) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pi-backend-'));
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
      backend: (config = {}, baseUrl = model.url) => createBackend({ path: cli.binary, base_url: baseUrl, ...config }, { environment: { PI_API_KEY: KEY } }),
      request: (overrides = {}) => {
        workspaces += 1;
        const workspace = path.join(root, `workspace-${workspaces}`);
        mkdirSync(workspace, { recursive: true });
        return {
          skill: SKILL,
          prompt: PROMPT,
          workspace,
          files: [{ path: 'task.md', content: `${ITEM.question}\n` }],
          timeoutMs: 60_000,
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

const completions = (model: LoopbackModel) => model.exchanges.filter((exchange) => exchange.path.endsWith('/chat/completions'));
const requestTexts = (model: LoopbackModel) => completions(model).map((exchange) => JSON.stringify(exchange.body));

/** The tokens the simulator served over Chat Completions, from the usage chunk of each streamed response. */
function servedUsage(model: LoopbackModel): Usage {
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const exchange of completions(model))
    for (const line of exchange.responseText.split('\n')) {
      if (!line.startsWith('data: {')) continue;
      const chunk = JSON.parse(line.slice('data: '.length)) as { usage?: { prompt_tokens: number; completion_tokens: number } | null };
      if (!chunk.usage) continue;
      total.inputTokens += chunk.usage.prompt_tokens;
      total.outputTokens += chunk.usage.completion_tokens;
    }
  return total;
}

/** The processes working in `directory` (Pi's Node process runs in its workspace), by /proc. */
function processesWorkingIn(directory: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((entry) => {
      try {
        return readlinkSync(`/proc/${entry}/cwd`) === directory;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('@skillopt/backends-pi with the real Pi CLI', () => {
  testWithAgentCli(
    'pi',
    'answers a plain task with the skill in AGENTS.md, whose text reaches the model; tokens equal to what the simulator served; no other host',
    async (cli) => {
      await withSession(cli, async (session) => {
        const result = await session
          .backend({ tools: [] })
          .createAgentRunner({ role: 'target', modelId: 'sim-target' })
          .run(session.request({ files: [], prompt: `${ITEM.question}\nFollow the skill document your harness gave you.` }));
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
        const texts = requestTexts(session.model);
        expect(texts).toHaveLength(1);
        expect(texts[0]).toContain(SKILL_MARKER);
        expect(texts[0]).toContain('AGENTS.md');
        expect(result.usage).toEqual(servedUsage(session.model));
        expect(result.usage.inputTokens).toBeGreaterThan(0);
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli(
    'pi',
    'reads task.md and the project skill with its read tool (a tool round trip), so the skill text reaches the model from the skills folder',
    async (cli) => {
      await withSession(cli, async (session) => {
        const runner = session.backend({ skill_placement: 'skills-folder' }).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const result = await runner.run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        const toolResults = result.transcript.filter(
          (event) => event.type === 'message_end' && (event.message as { role?: unknown } | undefined)?.role === 'toolResult',
        );
        expect(toolResults.length).toBeGreaterThanOrEqual(1);
        const texts = requestTexts(session.model);
        expect(texts[0]).toContain('skillopt-target');
        expect(texts[0]).not.toContain(SKILL_MARKER);
        const afterTools = texts.filter((text) => text.includes('"role":"tool"'));
        expect(afterTools.some((text) => text.includes(SKILL_MARKER))).toBe(true);
        expect(afterTools.some((text) => text.includes(ITEM.question as string))).toBe(true);
        expect(result.usage).toEqual(servedUsage(session.model));
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli('pi', 'answers a chat call with no tools, the system text as its system prompt, and the tokens it was served', async (cli) => {
    await withSession(cli, async (session) => {
      const model = session.backend().createChatModel({ role: 'judge', modelId: 'sim-target' });
      const result = await model.generate({
        messages: [
          { role: 'system', content: 'Answer the question.' },
          { role: 'user', content: `## Question\n${ITEM.question}` },
        ],
        maxOutputTokens: 300,
        purpose: 'judge',
      });
      expect(result.text).toMatch(/\b(?:8|eight)\b/);
      const bodies = completions(session.model).map((exchange) => exchange.body as Record<string, unknown>);
      expect(bodies).toHaveLength(1);
      expect(bodies[0]?.tools).toBeUndefined();
      expect(bodies[0]?.max_completion_tokens).toBe(300);
      const messages = bodies[0]?.messages as Array<{ role: string; content: unknown }>;
      expect(messages[0]).toMatchObject({ role: 'system' });
      expect(String(messages[0]?.content)).toMatch(/^Answer the question\./);
      expect(result.usage).toEqual(servedUsage(session.model));
    });
  });

  testWithAgentCli('pi', 'turns a run whose model never answers into a retryable process-timeout at its limit, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const error = await runner.run(session.request({ timeoutMs: 6_000 })).catch((caught: unknown) => caught);
        expect(ProviderError.isInstance(error)).toBe(true);
        // Pi reaches the silent model within about 3 s of a quiet machine's time; on a saturated one it
        // may still be starting at the limit. Either way it is killed there: that is what this asserts.
        expect(error).toMatchObject({ code: 'process-timeout', retryable: true, provider: 'pi' });
        expect((error as ProviderError).details?.durationMs).toBeGreaterThanOrEqual(6_000);
      } finally {
        await silent.close();
      }
    });
  });

  testWithAgentCli('pi', 'turns a run killed mid-run into a retryable process-crashed, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const request = session.request({ timeoutMs: 60_000 });
        const pending = runner.run(request).catch((caught: unknown) => caught);
        // Once the model has the request, Pi is mid-run: kill its Node process (the one working in this workspace) by pid.
        while (silent.requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const pids = processesWorkingIn(request.workspace);
        expect(pids.length).toBeGreaterThanOrEqual(1);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        const error = await pending;
        expect(error).toMatchObject({ code: 'process-crashed', retryable: true, provider: 'pi' });
      } finally {
        await silent.close();
      }
    });
  });
});
