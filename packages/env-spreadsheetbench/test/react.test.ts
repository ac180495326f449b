import type { Environment, GenerateRequest, GenerateResult } from '@skillopt/contract';
import { createScriptedChatModel, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, REACT_TOOLS, type SpreadsheetTaskItem, splitCommandLine } from '../src/index';
import { realTasksConfig, TASK_39180_SOLUTION } from './helpers';

// As solution.py in the working folder, with the two paths the ReAct prompt asks for.
const SOLUTION = ['INPUT_PATH = "input.xlsx"', 'OUTPUT_PATH = "output.xlsx"', TASK_39180_SOLUTION, 'print("total", sheet["C2"].value)'].join('\n');

const contexts = createWorkDirectoryRolloutContextsForTests();
let environment: Environment;
let item: SpreadsheetTaskItem;

beforeAll(async () => {
  environment = createSpreadsheetBenchEnvironment(realTasksConfig({ train: ['39180'] }, { mode: 'react', max_turns: 8, case_timeout: 20 }));
  item = ((await environment.loadSplit('train')) as SpreadsheetTaskItem[])[0] as SpreadsheetTaskItem;
});
afterAll(async () => {
  await environment.teardown?.();
  await contexts.removeAll();
});

const call = (toolName: string, input: Record<string, unknown>, index: number): GenerateResult => ({
  text: '',
  toolCalls: [{ toolCallId: `call-${index}`, toolName, input }],
  usage: { inputTokens: 10, outputTokens: 10 },
  finishReason: 'tool-calls',
});

function toolOutputs(request: GenerateRequest): string[] {
  const last = request.messages.at(-1);
  return Array.isArray(last?.content) ? last.content.map((part) => String((part as { output?: unknown }).output ?? '')) : [];
}

describe('the legacy ReAct mode', () => {
  it('splits a command line like a shell would quote it, and interprets nothing else', () => {
    expect(splitCommandLine(`python -c "print('a b')" x\\ y`)).toEqual(['python', '-c', "print('a b')", 'x y']);
    expect(splitCommandLine('python solution.py | cat')).toEqual(['python', 'solution.py', '|', 'cat']);
    expect(() => splitCommandLine('python "open')).toThrow(/unclosed quote/);
    expect(REACT_TOOLS.map((tool) => tool.name)).toEqual(['bash', 'write_file']);
  });

  it('writes solution.py, runs Python in the sandbox, and scores the solution on every case', async () => {
    const replies = [
      call('write_file', { path: 'solution.py', content: SOLUTION }, 0),
      call('bash', { cmd: 'python solution.py' }, 1),
      call('bash', { cmd: 'ls -la' }, 2),
      call('write_file', { path: '../escape.py', content: 'x' }, 3),
      call('write_file', { path: '/tmp/escape.py', content: 'x' }, 4),
      call('bash', { cmd: "python -c \"import os; os.symlink('/etc/hostname', 'link.txt')\"" }, 5),
      call('write_file', { path: 'link.txt', content: 'through the link' }, 6),
      'Done: solution.py writes the total into C2.',
    ];
    const model = createScriptedChatModel({ reply: replies });
    const result = await environment.rollout(item, {
      ...contexts.contextFor({ skill: '# Skill', target: { kind: 'chat', model }, itemId: item.id }),
      phase: 'train',
    });
    const outputs = model.calls.slice(1).map((request) => toolOutputs(request)[0]);
    expect(outputs[0]).toMatch(/^wrote solution\.py \(\d+ bytes\)$/);
    expect(outputs[1]).toBe('total 14');
    expect(outputs[2]).toBe('only python can be run here: start the command with python or python3');
    expect(outputs[3]).toMatch(/is not a path inside the working folder/);
    expect(outputs[4]).toMatch(/is not a path inside the working folder/);
    expect(outputs[6]).toMatch(/ELOOP|symbolic link|too many/i);
    expect(model.calls[0]?.tools?.map((tool) => tool.name)).toEqual(['bash', 'write_file']);
    expect(result).toMatchObject({
      status: 'scored',
      hard: 1,
      soft: 1,
      details: { mode: 'react', modelCalls: 8, toolCalls: 7, finished: true, casesPassed: 3 },
    });
  });

  it('scores nothing when the model leaves no solution.py', async () => {
    const model = createScriptedChatModel({ reply: ['I looked, and I give up.'] });
    const result = await environment.rollout(item, contexts.contextFor({ skill: '# Skill', target: { kind: 'chat', model }, itemId: item.id }));
    expect(result).toMatchObject({ status: 'scored', hard: 0, soft: 0, details: { toolCalls: 0, cases: [] } });
  });

  it('reads solution.py as data: one the sandboxed Python made a link is no solution, and is never followed', async () => {
    const model = createScriptedChatModel({
      reply: [call('bash', { cmd: `python -c "import os; os.symlink('/etc/passwd', 'solution.py')"` }, 0), 'Done.'],
    });
    const result = await environment.rollout(item, contexts.contextFor({ skill: '# Skill', target: { kind: 'chat', model }, itemId: item.id }));
    expect(result).toMatchObject({
      status: 'scored',
      hard: 0,
      prediction: '',
      trajectory: { failureReason: 'no code: no reply held a Python script' },
      details: { toolCalls: 1, cases: [] },
    });
    const evaluation = result.status === 'scored' ? (result.trajectory?.turns.at(-1)?.content ?? '') : '';
    expect(evaluation).toContain('(solution.py is not a regular file in the work folder: it is a symbolic link)');
    expect(evaluation).not.toMatch(/root:/);
  });
});
