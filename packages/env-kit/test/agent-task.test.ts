import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { AGENT_TASK_FILE, agentTaskFiles, buildAgentTaskPrompt, LONGEST_AGENT_TIME_LIMIT_MS, runAgentTask } from '../src/index';
import { createScriptedAgentRunner } from '../src/testing';

let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'env-kit-agent-task-'));
});
afterAll(() => rm(parent, { recursive: true, force: true }));

function context(signal: AbortSignal = new AbortController().signal) {
  let asked = 0;
  return {
    skill: '# Skill\n\nCheck the units.\n',
    signal,
    asked: () => asked,
    workDirectory: async () => {
      asked += 1;
      return parent;
    },
  };
}

describe('the agent task file', () => {
  it('is task.md, first, before the item files', () => {
    expect(AGENT_TASK_FILE).toBe('task.md');
    expect(agentTaskFiles('## Question\n\nWhy?', [{ path: 'documents/a.txt', content: 'A' }])).toEqual([
      { path: 'task.md', content: '## Question\n\nWhy?' },
      { path: 'documents/a.txt', content: 'A' },
    ]);
  });

  it('refuses an item file where the task goes', () => {
    expect(() => agentTaskFiles('task', [{ path: 'task.md', content: 'other' }])).toThrow(/an item file is placed at task.md/);
  });
});

describe('the agent prompt', () => {
  it('names task.md in backticks, asks for answer tags and points at the skill', () => {
    const prompt = buildAgentTaskPrompt('The answer is a letter.');
    expect(prompt).toContain('Read `task.md` in your working directory: it holds your task. The answer is a letter.');
    expect(prompt).toContain('Follow the skill document your harness gave you');
    expect(prompt).toMatch(/final answer inside <answer><\/answer>\.$/);
    expect(buildAgentTaskPrompt()).toContain('it holds your task.\n');
  });
});

describe('runAgentTask', () => {
  it("runs the runner once in the rollout's work directory with task.md, the item files, the skill, the limit and the signal", async () => {
    const runner = createScriptedAgentRunner({ reply: () => 'Done.\n<answer>42</answer>' });
    const rollout = context();
    const run = await runAgentTask(
      runner,
      { text: '## Question\n\nHow many?', files: [{ path: 'page.png', content: new Uint8Array([1]) }], notes: 'Count.' },
      rollout,
      90_000,
    );
    expect(runner.calls).toHaveLength(1);
    const request = runner.calls[0] as AgentRunRequest;
    expect(request).toMatchObject({ skill: rollout.skill, workspace: parent, timeoutMs: 90_000, purpose: 'rollout', signal: rollout.signal });
    expect(request.files?.map((file) => file.path)).toEqual(['task.md', 'page.png']);
    expect(request.prompt).toBe(buildAgentTaskPrompt('Count.'));
    expect(rollout.asked()).toBe(1);
    expect(run).toMatchObject({
      prompt: request.prompt,
      finalText: 'Done.\n<answer>42</answer>',
      details: { targetKind: 'agent', exitCode: 0, transcriptEvents: 1 },
    });
    expect(run.usage.estimated).toBe(true);
  });

  it('gives the runner the longest timer delay when the env sets no limit (0), and no more than it', async () => {
    const runner = createScriptedAgentRunner({ reply: () => 'x' });
    await runAgentTask(runner, { text: 'task' }, context(), 0);
    await runAgentTask(runner, { text: 'task' }, context(), LONGEST_AGENT_TIME_LIMIT_MS * 2);
    expect(runner.calls.map((call) => call.timeoutMs)).toEqual([LONGEST_AGENT_TIME_LIMIT_MS, LONGEST_AGENT_TIME_LIMIT_MS]);
  });

  it("runs with the task's own purpose when it names one (Sleep's replays say `replay`)", async () => {
    const runner = createScriptedAgentRunner({ reply: () => 'x' });
    await runAgentTask(runner, { text: 'task', purpose: 'replay' }, context(), 1000);
    expect(runner.calls[0]?.purpose).toBe('replay');
  });

  it("passes the runner's failure on unchanged: an infrastructure error, never an answer", async () => {
    const crash = new ProviderError({ provider: 'test-double', code: 'process-crashed', message: 'the harness crashed', retryable: true });
    const runner = createScriptedAgentRunner({
      reply: () => {
        throw crash;
      },
    });
    await expect(runAgentTask(runner, { text: 'task' }, context(), 1000)).rejects.toBe(crash);
  });

  it('settles with the abort reason when the rollout aborts, even if the runner ignores its signal', async () => {
    const controller = new AbortController();
    const runner = { ...createScriptedAgentRunner({ reply: () => 'x' }), run: () => new Promise<never>(() => undefined) };
    const pending = runAgentTask(runner, { text: 'task' }, context(controller.signal), 1000);
    controller.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
  });

  it('starts nothing when the rollout is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    const runner = createScriptedAgentRunner({ reply: () => 'x' });
    const rollout = context(controller.signal);
    await expect(runAgentTask(runner, { text: 'task' }, rollout, 1000)).rejects.toThrow('already stopped');
    expect(runner.calls).toHaveLength(0);
    expect(rollout.asked()).toBe(0);
  });
});
