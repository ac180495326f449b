import { createBackend } from '@skillopt/backends-sim';
import {
  type AgentRunner,
  type ChatModel,
  type GenerateRequest,
  type Message,
  SLEEP_PROMPT_STAGES,
  type SleepPrompt,
  type ToolDefinition,
} from '@skillopt/contract';
import type { HarvestedSession } from '../src/harvest/session-record.js';
import { createLlmJudge } from '../src/judge/llm-judge.js';
import { createLlmMiner } from '../src/mine/llm-miner.js';
import { replayOnAgent } from '../src/night/agent-replay.js';
import { replayMessages } from '../src/night/replay-prompt.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

/** The simulated model, recording the stage it recognised in each call it answered. */
function recordingSimulator(role: 'target' | 'optimizer') {
  const model = createBackend({}).createChatModel!({ role });
  const stages: unknown[] = [];
  const recording: ChatModel = {
    ...model,
    async generate(request: GenerateRequest) {
      const result = await model.generate(request);
      stages.push(result.providerMetadata?.stage);
      return result;
    },
  };
  return { model: recording, stages };
}

const session: HarvestedSession = {
  format: 'skillopt.sleep.session.v1',
  source: 'claude-code',
  sessionId: 's1',
  project: '/work/papers',
  startedAt: '2026-11-01T10:00:00Z',
  endedAt: '2026-11-01T10:05:00Z',
  task: 'What is the arXiv id of the Attention paper?',
  turns: [
    { role: 'user', text: 'What is the arXiv id of the Attention paper?' },
    { role: 'assistant', text: 'It is arXiv:1706.03762.' },
    { role: 'user', text: 'thanks, perfect' },
  ],
  toolCalls: [],
  skillsUsed: [],
  filesTouched: [],
  outcomeSignals: [{ kind: 'user-feedback', polarity: 'positive', phrase: 'perfect', turn: 2 }],
  userTurnCount: 2,
  assistantTurnCount: 1,
  location: '/tmp/s1.jsonl',
};

describe('the simulated model knows every Sleep prompt by its stage', () => {
  test('as a miner it turns a satisfied session into a task with a check on what was accepted', async () => {
    const { model, stages } = recordingSimulator('optimizer');
    const mining = await createLlmMiner({ model, maxSessions: 5, maxTasks: 5 })([session]);
    expect(stages).toEqual(['mine']);
    expect(mining.failures).toEqual([]);
    expect(mining.tasks).toHaveLength(1);
    expect(mining.tasks[0]).toMatchObject({
      intent: 'What is the arXiv id of the Attention paper?',
      referenceKind: 'rule',
    });
    expect(mining.tasks[0]?.judge?.checks).toEqual([
      { op: 'contains', arg: 'arXiv:1706.03762' },
      { op: 'no_refusal', arg: null },
    ]);
  });

  test('as a judge it grades an answer by the rubric', async () => {
    const { model, stages } = recordingSimulator('target');
    const judge = createLlmJudge({ model });
    const task = { intent: 'Summarise the release notes', reference: 'mentions the parser fix and the version 1.2.0' };
    const good = await judge.judge({ task, response: 'The parser fix ships in version 1.2.0; it mentions both.' });
    const poor = await judge.judge({ task, response: 'Nothing much changed.' });
    expect(stages).toEqual(['judge', 'judge']);
    expect(good).toMatchObject({ ok: true, hard: 1 });
    expect(poor).toMatchObject({ ok: true, hard: 0 });
  });
});

const READ_TOOL: ToolDefinition = {
  name: 'Read',
  description: 'Reads a file of the working directory.',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
};

/**
 * A harness in miniature around a chat model, as Claude Code is one: the skill inlined as its
 * CLAUDE.md, the request's files read with a Read tool, the final text the answer.
 */
function harnessAround(model: ChatModel): AgentRunner {
  return {
    specificationVersion: 'v1',
    provider: 'miniature-harness',
    modelId: model.modelId,
    async run(request) {
      const files = new Map((request.files ?? []).map((file) => [`/w/${file.path}`, String(file.content)]));
      const messages: Message[] = [
        { role: 'system', content: 'You are a coding agent.\nPrimary working directory: /w' },
        { role: 'user', content: `Contents of /w/CLAUDE.md (project instructions):\n\n${request.skill}\n\n${request.prompt}` },
      ];
      for (let round = 0; round < 4; round += 1) {
        const result = await model.generate({ messages, tools: [READ_TOOL], purpose: request.purpose });
        if (result.toolCalls === undefined)
          return { finalText: result.text, transcript: [], usage: result.usage, exitStatus: { code: 0, signal: null, timedOut: false } };
        messages.push({ role: 'assistant', content: result.toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })) });
        for (const call of result.toolCalls) {
          const output = files.get(String((call.input as { file_path?: unknown }).file_path)) ?? 'no such file';
          messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output }] });
        }
      }
      throw new Error('the miniature harness did not finish in 4 rounds');
    },
  };
}

const arxivTask = { intent: 'What is the arXiv id of BERT?', contextExcerpt: '', system: '' } as TaskRecord;

/** Each of Sleep's prompts rendered by Sleep's own code and sent to the simulator: the stages it recognised. */
const RENDERED: Record<SleepPrompt, () => Promise<unknown[]>> = {
  'mine-sessions': async () => {
    const { model, stages } = recordingSimulator('optimizer');
    await createLlmMiner({ model, maxSessions: 5, maxTasks: 5 })([session]);
    return stages;
  },
  'replay-chat': async () => {
    const { model, stages } = recordingSimulator('target');
    await model.generate({ messages: replayMessages(arxivTask, '# Skill\n'), purpose: 'replay' });
    return stages;
  },
  'replay-agent': async () => {
    const { model, stages } = recordingSimulator('target');
    let workspace = 0;
    const context = { signal: new AbortController().signal, workDirectory: async () => `/tmp/miniature-${(workspace += 1)}` };
    await replayOnAgent(harnessAround(model), arxivTask, '# Skill\n', {
      ...context,
      skill: '',
      target: { kind: 'agent', runner: harnessAround(model) },
      sampleIndex: 0,
    });
    // The harness reads task.md first; the reply after it is the replay.
    return stages.slice(-1);
  },
  'judge-rubric': async () => {
    const { model, stages } = recordingSimulator('target');
    await createLlmJudge({ model }).judge({ task: { intent: 'x', reference: 'mentions the parser fix' }, response: 'the parser fix' });
    return stages;
  },
};

describe("the simulator recognises every prompt of Sleep's stage table", () => {
  test.each(Object.entries(SLEEP_PROMPT_STAGES))('%s as %s', async (prompt, stage) => {
    expect(await RENDERED[prompt as SleepPrompt]()).toEqual([stage]);
  });
});
