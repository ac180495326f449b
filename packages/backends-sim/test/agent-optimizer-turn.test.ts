import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Message, ScoredRollout, ToolDefinition } from '@skillopt/contract';
import { agentOptimizerRequest, editsFromRevision } from '@skillopt/optimizer';
import { createSimulatedModel } from '../src/index';
import { CLAUDE_CODE_TOOLS, CODEX_TOOLS, PI_TOOLS } from './cli-tool-lists';

// The simulated optimizer as the model of an agent-optimizer harness: driven here through the
// optimizer's real agent prompt and workspace files, with each CLI's tool list, the harness's part
// (running the tools in a workspace) played by the test.

const SKILL = '# Question Answering Skill\n\n- Read the question carefully.\n';
const failure = (id: string, question: string, reply: string, reference: string): ScoredRollout => ({
  status: 'scored',
  id,
  taskType: 'number',
  hard: 0,
  soft: 0,
  prediction: reply,
  reference,
  trajectory: {
    turns: [
      { role: 'user', content: question },
      { role: 'assistant', content: reply },
    ],
  },
});
// Replies without answer tags, numbers in words: failure classes the simulated reflection names.
const RESULTS: ScoredRollout[] = [
  failure('q1', 'How many legs does a spider have?', 'I think a spider has eight legs.', '8'),
  failure('q2', 'How many sides does a hexagon have?', 'A hexagon has six sides, I believe.', '6'),
  failure('q3', 'How many planets are in the solar system?', 'There are eight planets.', '8'),
];

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'sim-agent-optimizer-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/** The harness's part: run a shell command in the workspace, or read or write the file a tool names. */
function runTool(input: Record<string, unknown>): { output: string; isError: boolean } {
  const command = input.command ?? input.cmd;
  if (typeof command === 'string') return { output: execFileSync('bash', ['-c', command], { cwd: workspace, encoding: 'utf8' }), isError: false };
  const file = path.resolve(workspace, String(input.file_path ?? input.filePath ?? input.path));
  if (typeof input.content === 'string') {
    writeFileSync(file, input.content);
    return { output: `The file ${file} has been written.`, isError: false };
  }
  return { output: readFileSync(file, 'utf8'), isError: false };
}

async function runAgent(tools: readonly ToolDefinition[], seed = 3, harmfulRuleRate = 0) {
  const request = agentOptimizerRequest({ skill: SKILL, results: RESULTS, maxEdits: 3, failureOnly: false });
  for (const file of request.files) {
    mkdirSync(path.dirname(path.join(workspace, file.path)), { recursive: true });
    writeFileSync(path.join(workspace, file.path), file.content);
  }
  const model = createSimulatedModel({ role: 'optimizer', seed, harmfulRuleRate });
  const messages: Message[] = [
    { role: 'system', content: `You are a coding agent.\nWorking directory: ${workspace}` },
    { role: 'user', content: request.prompt },
  ];
  const toolNames: string[] = [];
  for (let round = 0; round < 8; round += 1) {
    const result = await model.generate({ messages, tools: [...tools], purpose: 'optimize' });
    if (result.toolCalls === undefined) return { finalText: result.text, toolNames, stage: result.providerMetadata?.stage };
    messages.push({ role: 'assistant', content: result.toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })) });
    for (const call of result.toolCalls) {
      toolNames.push(call.toolName);
      const { output, isError } = runTool(call.input as Record<string, unknown>);
      messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output, isError }] });
    }
  }
  throw new Error('the agent did not finish in 8 rounds');
}

describe('the simulated optimizer as an agent-optimizer’s model', () => {
  it.each([
    ['Claude Code', CLAUDE_CODE_TOOLS, 'Read', 'Write'],
    ['Codex', CODEX_TOOLS, 'exec_command', 'exec_command'],
    ['Pi', PI_TOOLS, 'read', 'write'],
  ])('with %s’s tools: reads the trajectory files, writes its edited skill.md, and names each change in its summary', async (_cli, tools, reader, writer) => {
    const run = await runAgent(tools);
    expect(run.stage).toBe('optimize');
    expect(run.toolNames[0]).toBe(reader);
    expect(run.toolNames.at(-1)).toBe(writer);
    const revised = readFileSync(path.join(workspace, 'skill.md'), 'utf8');
    expect(revised).not.toBe(SKILL);
    expect(revised).toContain('- Read the question carefully.');
    expect(revised).toMatch(/<answer>/i);
    // What the optimizer reads off the copy: at least one edit, each named by a summary line.
    const { changes } = editsFromRevision(SKILL, revised);
    expect(changes.length).toBeGreaterThanOrEqual(1);
    const summaryLines = run.finalText.split('\n').filter((line) => /^- `[^`]+`: /.test(line));
    expect(summaryLines).toHaveLength(changes.length);
  });

  it('proposes harmful rules at its configured rate, as its reflection does', async () => {
    const harmful = await runAgent(CLAUDE_CODE_TOOLS, 3, 1);
    const harmless = readFileSync(path.join(workspace, 'skill.md'), 'utf8');
    rmSync(workspace, { recursive: true, force: true });
    mkdirSync(workspace);
    await runAgent(CLAUDE_CODE_TOOLS, 3, 0);
    expect(harmless).not.toBe(readFileSync(path.join(workspace, 'skill.md'), 'utf8'));
    expect(harmful.finalText).toContain('Several answers were judged wrong on their form');
  });

  it('answers an ordinary optimizer prompt as before when it is offered tools', async () => {
    const model = createSimulatedModel({ role: 'optimizer', seed: 1 });
    const result = await model.generate({ messages: [{ role: 'user', content: 'Say hello.' }], tools: [...CLAUDE_CODE_TOOLS], purpose: 'reflect' });
    expect(result.toolCalls).toBeUndefined();
    expect(result.providerMetadata?.stage).toBe('unrecognised');
  });
});
