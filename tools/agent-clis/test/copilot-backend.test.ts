import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, type CopilotBackendConfigInput } from '@skillopt/backends-copilot';
import { ProviderError, type AgentRunRequest, type TaskItem } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './helpers/deny-proxy';
import { startSilentModel } from './helpers/silent-model';
import { startLoopbackModel, type LoopbackModel } from './helpers/loopback-model';

// @skillopt/backends-copilot driving the real GitHub Copilot CLI (BYOK, offline) against `sim
// serve` on loopback: what the unit tests cannot show with a fake copilot — that the argument
// vector, the environment, the skill placements, the usage report and the reader of its JSON
// lines fit Copilot CLI 1.0.102 itself, and that the package it unpacked is shared, not unpacked again.

const ITEM: TaskItem = { id: 'copilot-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const SKILL_MARKER = 'SKILL-MARKER-c0p1';
// The second rule addresses the simulated model's verbose habit, so its answer is the bare number.
const SKILL = `# Counting skill\n- Count carefully and answer with digits. (${SKILL_MARKER})\n- Give only the number inside <answer></answer> tags, with no explanations.`;
const PROMPT = [
  'Read `task.md` in your working directory: it holds your task.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'End your reply with your final answer inside <answer></answer>.',
].join('\n');
// Long and odd on purpose: Copilot masks its key's value wherever it appears in its output.
const KEY = 'loopback-copilot-key-4e8b';

interface Session {
  model: LoopbackModel;
  proxy: DenyProxy;
  /** The HOME the backend hands Copilot: empty, so anything Copilot unpacked there would show. */
  home: string;
  backend(config?: CopilotBackendConfigInput, baseUrl?: string): ReturnType<typeof createBackend>;
  request(overrides?: Partial<AgentRunRequest>): AgentRunRequest;
}

/**
 * A loopback model and a deny proxy, and this process's environment as a user's: an empty HOME,
 * XDG_CACHE_HOME at the cache the installer pre-warmed (where `copilot --version` unpacked its
 * package), the proxy settings. The backend hands Copilot these by its allowlist.
 */
async function withSession(cli: LocatedAgentCli, body: (session: Session) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'copilot-backend-'));
  const home = path.join(root, 'home');
  execFileSync('mkdir', ['-p', home]);
  const model = await startLoopbackModel([ITEM]);
  const proxy = await startDenyProxy();
  const saved = { ...process.env };
  Object.assign(process.env, {
    HOME: home,
    XDG_CACHE_HOME: path.join(cli.cacheHome, '.cache'),
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    NO_PROXY: '127.0.0.1,localhost',
  });
  let workspaces = 0;
  try {
    await body({
      model,
      proxy,
      home,
      backend: (config = {}, baseUrl = model.url) =>
        createBackend({ path: cli.binary, base_url: baseUrl, ...config }, { environment: { COPILOT_PROVIDER_API_KEY: KEY } }),
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

const chatRequests = (model: LoopbackModel) => model.exchanges.filter((exchange) => exchange.path.endsWith('/chat/completions'));
const requestTexts = (model: LoopbackModel) => chatRequests(model).map((exchange) => JSON.stringify(exchange.body));

/** The tokens the simulator answered the CLI's requests with, summed. */
function servedUsage(model: LoopbackModel): { inputTokens: number; outputTokens: number } {
  let inputTokens = 0;
  let outputTokens = 0;
  for (const exchange of chatRequests(model)) {
    const usage = (JSON.parse(exchange.responseText) as { usage?: { prompt_tokens?: number; completion_tokens?: number } }).usage;
    inputTokens += usage?.prompt_tokens ?? 0;
    outputTokens += usage?.completion_tokens ?? 0;
  }
  return { inputTokens, outputTokens };
}

/**
 * Every file under `directory` with its size and modification time: what an unpacking would change.
 * Folders are left out: a run's lock file comes and goes in the package's folder, changing its time only.
 */
function snapshot(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .flatMap((name) => {
      const stats = statSync(path.join(directory, name));
      return stats.isDirectory() ? [] : [`${name} ${stats.size} ${stats.mtimeMs}`];
    })
    .sort();
}

describe('@skillopt/backends-copilot with the real Copilot CLI', () => {
  testWithAgentCli(
    'copilot',
    'answers a task with the skill in .github/copilot-instructions.md, whose text reaches the model; tokens equal to what the simulator served; no other host',
    async (cli) => {
      await withSession(cli, async (session) => {
        const result = await session.backend().createAgentRunner({ role: 'target', modelId: 'sim-target' }).run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
        expect(result.usage.estimated).toBeUndefined();
        expect({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }).toEqual(servedUsage(session.model));
        const texts = requestTexts(session.model);
        expect(texts.length).toBeGreaterThanOrEqual(1);
        expect(texts[0]).toContain(SKILL_MARKER);
        expect(texts[0]).toContain('<custom_instruction>');
        const toolNames = (((chatRequests(session.model)[0]?.body ?? {}) as { tools?: Array<{ function?: { name?: string } }> }).tools ?? []).map(
          (tool) => tool.function?.name,
        );
        expect(toolNames.sort()).toEqual(['bash', 'glob', 'grep', 'view']);
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli(
    'copilot',
    'reads task.md and the project skill with its tools (a tool round trip), so the skill text reaches the model from the skills folder',
    async (cli) => {
      await withSession(cli, async (session) => {
        const runner = session.backend({ skill_placement: 'skills-folder' }).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const result = await runner.run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(result.transcript.filter((event) => event.type === 'tool.execution_complete').length).toBeGreaterThanOrEqual(1);
        const texts = requestTexts(session.model);
        expect(texts[0]).toContain('skillopt-target');
        expect(texts[0]).not.toContain(SKILL_MARKER);
        const afterTools = texts.filter((text) => text.includes('"role":"tool"'));
        expect(afterTools.some((text) => text.includes(SKILL_MARKER))).toBe(true);
        expect(afterTools.some((text) => text.includes(ITEM.question as string))).toBe(true);
        expect({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }).toEqual(servedUsage(session.model));
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli(
    'copilot',
    'runs from the package the installer’s own run unpacked: the next run unpacks nothing, in the shared cache or in HOME',
    async (cli) => {
      await withSession(cli, async (session) => {
        const cache = path.join(cli.cacheHome, '.cache', 'copilot');
        const before = snapshot(cache);
        expect(before.some((entry) => entry.includes('.extraction-complete'))).toBe(true);
        const runner = session.backend().createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const next = await runner.run(session.request());
        expect(next.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(snapshot(cache)).toEqual(before);
        expect(existsSync(path.join(session.home, '.cache'))).toBe(false);
        expect(readdirSync(session.home)).toEqual([]);
      });
    },
  );

  testWithAgentCli('copilot', 'answers a chat call with no tools sent to the model, its tokens as the simulator served them', async (cli) => {
    await withSession(cli, async (session) => {
      const model = session.backend().createChatModel({ role: 'judge', modelId: 'sim-target' });
      const result = await model.generate({
        messages: [
          { role: 'system', content: 'Answer the question.' },
          { role: 'user', content: `## Question\n${ITEM.question}` },
        ],
        purpose: 'judge',
      });
      expect(result.text.trim()).not.toBe('');
      expect(result.usage.estimated).toBeUndefined();
      expect({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }).toEqual(servedUsage(session.model));
      const bodies = chatRequests(session.model).map((exchange) => exchange.body as Record<string, unknown>);
      expect(bodies.length).toBeGreaterThanOrEqual(1);
      for (const body of bodies) expect(body.tools ?? []).toEqual([]);
    });
  });

  testWithAgentCli('copilot', 'turns a run whose model never answers into a retryable process-timeout at its limit, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const error = await runner.run(session.request({ timeoutMs: 10_000 })).catch((caught: unknown) => caught);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'process-timeout', retryable: true, provider: 'copilot' });
        expect(silent.requests).toBeGreaterThanOrEqual(1);
      } finally {
        await silent.close();
      }
    });
  });

  testWithAgentCli('copilot', 'turns a run killed mid-run into a retryable process-crashed, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const pending = runner.run(session.request({ timeoutMs: 60_000 })).catch((caught: unknown) => caught);
        // Once the model has the request, Copilot is mid-run: kill its native process (the one the npm loader started) by pid.
        while (silent.requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const processes = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
        const native = processes.filter((line) => line.includes('copilot-linux') && line.includes('--usage-output-file'));
        const pids = native.map((line) => Number(line.trim().split(/\s+/)[0]));
        expect(pids.length).toBeGreaterThanOrEqual(1);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        const error = await pending;
        expect(error).toMatchObject({ code: 'process-crashed', retryable: true, provider: 'copilot' });
      } finally {
        await silent.close();
      }
    });
  });
});
