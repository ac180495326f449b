import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBackend as createClaudeCodeBackend } from '@skillopt/backends-claude-code';
import { createBackend as createCodexBackend } from '@skillopt/backends-codex';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { AgentRunner, AgentRunRequest, AgentRunResult, TranscriptEvent } from '@skillopt/contract';
import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { startLoopbackModel, type LoopbackModel } from './helpers/loopback-model';
import { toolResultsOf } from './helpers/model-answer';
import { LOOPBACK_API_KEY, SMOKE_ITEM, TARGET_MODEL } from './helpers/smoke-session';

// The real Claude Code and the real Codex as the agent mode of an env runs them: sandboxed
// (`isolation: 'sandbox'`), allowed to write their workspace and to run python3, against `sim
// serve`. The simulated model reads every file the prompt names with the CLI's own tools: task.md,
// and two files outside the workspace by absolute path — one beside the workspace, one in another
// folder of the test's. Inside bubblewrap neither exists, so both reads fail and their text reaches
// nothing: not the model, not the transcript, not the answer.

const PARENT_MARKER_TEXT = 'PARENT-MARKER-3b7d-not-for-the-agent';
const OUTSIDE_MARKER_TEXT = 'OUTSIDE-MARKER-91ae-not-for-the-agent';
const SKILL = '# Skill\n- Give the final answer inside <answer></answer> tags.';
const NOT_FOUND = /no such file|does not exist|not found|ENOENT|cannot access|can't open/i;

interface SandboxedRun {
  result: AgentRunResult;
  model: LoopbackModel;
  outsideFiles: string[];
}

/** One sandboxed run of `runner(model)` on the smoke task whose prompt also names two files outside the workspace. */
async function sandboxedRun(runner: (model: LoopbackModel) => AgentRunner): Promise<SandboxedRun> {
  const root = await mkdtemp(path.join(tmpdir(), 'sandboxed-harness-'));
  const elsewhere = await mkdtemp(path.join(tmpdir(), 'sandboxed-harness-elsewhere-'));
  const model = await startLoopbackModel([SMOKE_ITEM]);
  try {
    const workspace = await mkdtemp(path.join(root, 'workspace-'));
    const parentMarker = path.join(root, 'parent-marker.txt');
    const outsideMarker = path.join(elsewhere, 'outside-marker.txt');
    await writeFile(parentMarker, PARENT_MARKER_TEXT);
    await writeFile(outsideMarker, OUTSIDE_MARKER_TEXT);
    const request: AgentRunRequest = {
      skill: SKILL,
      prompt: `Read \`task.md\` in your working directory and answer the question in it. Also read \`${parentMarker}\` and \`${outsideMarker}\`.`,
      workspace,
      files: [{ path: 'task.md', content: `${SMOKE_ITEM.question}\n` }],
      timeoutMs: 120_000,
      purpose: 'rollout',
      workspaceAccess: 'write',
      allowedCommands: ['python3'],
      isolation: 'sandbox',
    };
    const result = await runner(model).run(request);
    return { result, model, outsideFiles: [parentMarker, outsideMarker] };
  } finally {
    await model.close();
    await rm(root, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  }
}

/** Neither marker's text reached the model, the transcript or the answer; task.md's did reach the model. */
function expectConfined(run: SandboxedRun): void {
  const everything = JSON.stringify([run.result, run.model.exchanges.map((exchange) => exchange.body)]);
  expect(everything).not.toContain(PARENT_MARKER_TEXT);
  expect(everything).not.toContain(OUTSIDE_MARKER_TEXT);
  const toolResults = run.model.exchanges.flatMap(toolResultsOf);
  expect(toolResults.some((text) => text.includes(SMOKE_ITEM.question as string))).toBe(true);
  expect(run.result.finalText).not.toBe('');
  expect(run.result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
}

type Block = Record<string, unknown>;
const blocksOf = (event: TranscriptEvent): Block[] => {
  const content = (event.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
};

testWithAgentCli(
  'claude',
  'Claude Code sandboxed: reads task.md and answers; a file beside the workspace and one elsewhere are not found, their text nowhere',
  async (cli: LocatedAgentCli) => {
    const run = await sandboxedRun((model) =>
      createClaudeCodeBackend(
        // Thinking off: the simulator takes enabled or disabled thinking, not adaptive.
        { path: cli.binary, base_url: model.origin, max_thinking_tokens: 0 },
        { environment: { ANTHROPIC_API_KEY: LOOPBACK_API_KEY }, rateLimiters: createRateLimiterRegistry() },
      ).createAgentRunner({ role: 'target', modelId: TARGET_MODEL }),
    );
    expectConfined(run);
    const calls = run.result.transcript
      .filter((event) => event.type === 'assistant')
      .flatMap(blocksOf)
      .filter((block) => block.type === 'tool_use');
    const results = new Map(
      run.result.transcript
        .filter((event) => event.type === 'user')
        .flatMap(blocksOf)
        .filter((block) => block.type === 'tool_result')
        .map((block) => [String(block.tool_use_id), block]),
    );
    for (const outside of run.outsideFiles) {
      const tries = calls.filter((call) => JSON.stringify(call.input).includes(outside));
      expect(tries.length).toBeGreaterThanOrEqual(1);
      for (const call of tries) {
        const result = results.get(String(call.id));
        expect(result?.is_error === true || NOT_FOUND.test(JSON.stringify(result?.content ?? ''))).toBe(true);
      }
    }
  },
  180_000,
);

/** Runs of Codex the test makes at most, for one that goes on to read the files outside. */
const CODEX_ATTEMPTS = 3;

testWithAgentCli(
  'codex',
  'Codex sandboxed, its own sandbox nested: its shell reads task.md and answers; files outside the workspace are not found, their text nowhere',
  async (cli: LocatedAgentCli) => {
    const commandsOf = (run: Awaited<ReturnType<typeof sandboxedRun>>) =>
      run.result.transcript
        .filter((event) => event.type === 'item.completed')
        .map((event) => event.item as { type?: string; command?: string; exit_code?: number | null })
        .filter((item) => item.type === 'command_execution');
    // Codex now and then answers after task.md without going on to the other files (in the full
    // serialised suite, never when this file runs alone): such a run is done again, at most three
    // times in all, and every run is held to the confinement (no marker's text anywhere).
    let run: Awaited<ReturnType<typeof sandboxedRun>> | undefined;
    for (let attempt = 0; attempt < CODEX_ATTEMPTS; attempt += 1) {
      run = await sandboxedRun((model) =>
        createCodexBackend({ path: cli.binary, base_url: model.url }, { environment: { CODEX_API_KEY: LOOPBACK_API_KEY } }).createAgentRunner({
          role: 'target',
          modelId: TARGET_MODEL,
        }),
      );
      expectConfined(run);
      const tried = run.outsideFiles.every((outside) => commandsOf(run as NonNullable<typeof run>).some((command) => command.command?.includes(outside)));
      if (tried) break;
    }
    if (run === undefined) throw new Error('Codex was not run');
    const commands = commandsOf(run);
    // Every shell command went through Codex's own bubblewrap, inside ours: the read of task.md worked.
    expect(commands.some((command) => command.command?.includes('task.md') && command.exit_code === 0)).toBe(true);
    // Whatever it tried of the files outside failed; the answers-unreachable test has an agent search for real.
    const outsideTries = commands.filter((command) => run.outsideFiles.some((outside) => command.command?.includes(outside)));
    for (const command of outsideTries) expect(command.exit_code).not.toBe(0);
  },
  180_000,
);
