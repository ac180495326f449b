import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, type CodexBackendConfigInput } from '@skillopt/backends-codex';
import { ProviderError, type AgentRunRequest, type TaskItem } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './helpers/deny-proxy';
import { startSilentModel } from './helpers/silent-model';
import { startLoopbackModel, type LoopbackModel } from './helpers/loopback-model';

// @skillopt/backends-codex driving the real Codex CLI against `sim serve` on loopback: what the
// backend's unit tests cannot show with a fake codex — that the argument vector, the isolated
// CODEX_HOME, the skill placements and the transcript reader fit codex-cli 0.171.0 itself.

const ITEM: TaskItem = { id: 'codex-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const SKILL_MARKER = 'SKILL-MARKER-7f3a';
// The second rule addresses the simulated model's verbose habit, so its answer is the bare number.
const SKILL = `# Counting skill\n- Count carefully and answer with digits. (${SKILL_MARKER})\n- Give only the number inside <answer></answer> tags, with no explanations.`;
const PROMPT = [
  'Read `task.md` in your working directory: it holds your task.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'End your reply with your final answer inside <answer></answer>.',
].join('\n');
const KEY = 'loopback-codex-key-91d2';

interface Session {
  model: LoopbackModel;
  proxy: DenyProxy;
  root: string;
  backend(config?: CodexBackendConfigInput, baseUrl?: string): ReturnType<typeof createBackend>;
  request(overrides?: Partial<AgentRunRequest>): AgentRunRequest;
}

/** A loopback model and a deny proxy (as the CLI's HTTP(S)_PROXY), removed after `body`. */
async function withSession(cli: LocatedAgentCli, body: (session: Session) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'codex-backend-'));
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
      root,
      backend: (config = {}, baseUrl = model.url) => createBackend({ path: cli.binary, base_url: baseUrl, ...config }, { environment: { CODEX_API_KEY: KEY } }),
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

const requestTexts = (model: LoopbackModel) =>
  model.exchanges.filter((exchange) => exchange.path.endsWith('/responses')).map((exchange) => JSON.stringify(exchange.body));

describe('@skillopt/backends-codex with the real Codex CLI', () => {
  testWithAgentCli(
    'codex',
    'answers a task with the skill in AGENTS.md, whose text reaches the model; tokens as Codex reported them; no other host',
    async (cli) => {
      await withSession(cli, async (session) => {
        const result = await session.backend().createAgentRunner({ role: 'target', modelId: 'sim-target' }).run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        expect(result.usage.estimated).toBeUndefined();
        expect(result.usage.inputTokens).toBeGreaterThan(0);
        expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
        const texts = requestTexts(session.model);
        expect(texts.length).toBeGreaterThanOrEqual(1);
        expect(texts[0]).toContain(SKILL_MARKER);
        expect(texts[0]).toContain('AGENTS.md instructions');
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli(
    'codex',
    'reads task.md and the project skill with its shell (a tool round trip), so the skill text reaches the model from the skills folder',
    async (cli) => {
      await withSession(cli, async (session) => {
        const runner = session.backend({ skill_placement: 'skills-folder' }).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const result = await runner.run(session.request());
        expect(result.finalText).toMatch(/<answer>\s*8\s*<\/answer>/);
        const commands = result.transcript.filter(
          (event) => (event.item as { type?: unknown } | undefined)?.type === 'command_execution' && event.type === 'item.completed',
        );
        expect(commands.length).toBeGreaterThanOrEqual(1);
        const texts = requestTexts(session.model);
        expect(texts[0]).toContain('skillopt-target');
        expect(texts[0]).not.toContain(SKILL_MARKER);
        const afterTools = texts.filter((text) => text.includes('function_call_output'));
        expect(afterTools.some((text) => text.includes(SKILL_MARKER))).toBe(true);
        expect(afterTools.some((text) => text.includes(ITEM.question as string))).toBe(true);
        expect(session.proxy.attempts).toEqual([]);
      });
    },
  );

  testWithAgentCli('codex', 'answers a chat call held to a JSON Schema (--output-schema), its tools off', async (cli) => {
    await withSession(cli, async (session) => {
      const model = session.backend().createChatModel({ role: 'judge', modelId: 'sim-target' });
      const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
      const result = await model.generate({
        messages: [
          { role: 'system', content: 'Answer the question.' },
          { role: 'user', content: `## Question\n${ITEM.question}` },
        ],
        responseFormat: { type: 'json', name: 'answer', schema },
        purpose: 'judge',
      });
      expect(Object.keys(JSON.parse(result.text) as object)).toEqual(['answer']);
      expect(result.usage.estimated).toBeUndefined();
      const bodies = session.model.exchanges
        .filter((exchange) => exchange.path.endsWith('/responses'))
        .map((exchange) => exchange.body as Record<string, unknown>);
      expect((bodies[0]?.text as { format?: { type?: unknown } } | undefined)?.format?.type).toBe('json_schema');
      const toolNames = ((bodies[0]?.tools ?? []) as Array<{ name?: string }>).map((tool) => tool.name);
      expect(toolNames).not.toContain('exec_command');
    });
  });

  testWithAgentCli('codex', 'turns a run whose model never answers into a retryable process-timeout at its limit, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const error = await runner.run(session.request({ timeoutMs: 5_000 })).catch((caught: unknown) => caught);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'process-timeout', retryable: true, provider: 'codex' });
        expect(silent.requests).toBeGreaterThanOrEqual(1);
      } finally {
        await silent.close();
      }
    });
  });

  testWithAgentCli('codex', 'turns a run killed mid-run into a retryable process-crashed, never an answer', async (cli) => {
    await withSession(cli, async (session) => {
      const silent = await startSilentModel();
      try {
        const runner = session.backend({}, silent.url).createAgentRunner({ role: 'target', modelId: 'sim-target' });
        const request = session.request({ timeoutMs: 60_000 });
        const pending = runner.run(request).catch((caught: unknown) => caught);
        // Once the model has the request, Codex is mid-run: kill its native process (the one working in this workspace) by pid.
        while (silent.requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const processes = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
        const pids = processes.filter((line) => line.includes(request.workspace) && !line.includes(' ps ')).map((line) => Number(line.trim().split(/\s+/)[0]));
        expect(pids.length).toBeGreaterThanOrEqual(1);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        const error = await pending;
        expect(error).toMatchObject({ code: 'process-crashed', retryable: true, provider: 'codex' });
      } finally {
        await silent.close();
      }
    });
  });
});
