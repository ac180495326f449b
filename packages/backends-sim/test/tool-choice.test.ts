import type { Message, ToolDefinition } from '@skillopt/contract';
import { planAgentStep } from '../src/agent-turn';
import { chooseAgentTools } from '../src/tool-choice';
import { CLAUDE_CODE_TOOLS, CLAUDE_STRUCTURED_OUTPUT_TOOL, CODEX_TOOLS, COPILOT_TOOLS, OPENCODE_TOOLS, PI_TOOLS, recordedShellCalls } from './cli-tool-lists';

const WORKSPACE = '/home/user/project';
const messages: Message[] = [
  { role: 'system', content: `You are a coding agent.\n\n# Environment\nPrimary working directory: ${WORKSPACE}` },
  { role: 'user', content: 'Read `task.md` in your working directory and answer the question in it; give the final answer inside <answer></answer>.' },
];
const recorded = recordedShellCalls();

function firstStep(tools: readonly ToolDefinition[]) {
  const step = planAgentStep(messages, tools);
  if (step?.kind !== 'read') throw new Error(`expected a read step, got ${JSON.stringify(step)}`);
  return step;
}

describe("the simulator's tool choice on the real CLIs' tool lists", () => {
  it.each([
    ['Claude Code', CLAUDE_CODE_TOOLS, 'Read', { file_path: `${WORKSPACE}/task.md` }],
    ['Copilot', COPILOT_TOOLS, 'view', { path: `${WORKSPACE}/task.md` }],
    ['OpenCode', OPENCODE_TOOLS, 'read', { filePath: `${WORKSPACE}/task.md` }],
    ['Pi', PI_TOOLS, 'read', { path: 'task.md' }],
  ])('%s: prefers the file reader, with an absolute path when its schema asks for one', (_cli, tools, toolName, input) => {
    const step = firstStep(tools);
    expect(step.toolName).toBe(toolName);
    expect(step.input).toEqual(input);
  });

  it('Codex (no reader; view_image takes a path but is an image viewer): the shell, exactly as the recorded call', () => {
    const step = firstStep(CODEX_TOOLS);
    expect({ toolName: step.toolName, input: step.input }).toEqual(recorded.codex);
  });

  it.each([
    ['claude', CLAUDE_CODE_TOOLS],
    ['copilot', COPILOT_TOOLS],
    ['opencode', OPENCODE_TOOLS],
    ['pi', PI_TOOLS],
  ] as const)('%s without its reader: the shell the transcript recorded, with arguments of the recorded shape', (cli, tools) => {
    const withoutReader = tools.filter((tool) => tool.name !== chooseAgentTools(tools).reader?.tool.name);
    const step = firstStep(withoutReader);
    const expected = recorded[cli];
    expect(step.toolName).toBe(expected.toolName);
    expect(step.input.command).toBe(expected.input.command);
    // Every required input is given (Copilot and OpenCode require the description the recording shows).
    const shell = tools.find((tool) => tool.name === expected.toolName) as ToolDefinition;
    for (const name of shell.inputSchema.required as string[]) expect(step.input).toHaveProperty(name);
    for (const name of Object.keys(step.input)) expect(Object.keys(expected.input)).toContain(name);
  });

  it('finds no shell, reader or structured-output tool among tools that only write, edit, search or delegate; the writer is Write, not Edit', () => {
    const writers = CLAUDE_CODE_TOOLS.filter((tool) => !['Bash', 'Read'].includes(tool.name));
    const chosen = chooseAgentTools(writers);
    expect(Object.keys(chosen)).toEqual(['writer']);
    expect(chosen.writer).toEqual(expect.objectContaining({ pathProperty: 'file_path', contentProperty: 'content', absolutePath: true }));
    expect(chosen.writer?.tool.name).toBe('Write');
    expect(chooseAgentTools(writers.filter((tool) => tool.name !== 'Write'))).toEqual({});
    // Claude Code's Write says its path "must be absolute, not relative": that allows no relative one.
    const strictWrite = {
      ...(chosen.writer?.tool as ToolDefinition),
      inputSchema: {
        type: 'object',
        properties: {
          file_path: { type: 'string', description: 'The absolute path to the file to write (must be absolute, not relative)' },
          content: { type: 'string' },
        },
        required: ['file_path', 'content'],
      },
    };
    expect(chooseAgentTools([strictWrite]).writer?.absolutePath).toBe(true);
    const lenient = {
      ...strictWrite,
      inputSchema: {
        ...strictWrite.inputSchema,
        properties: { file_path: { type: 'string', description: 'An absolute or relative path' }, content: { type: 'string' } },
      },
    };
    expect(chooseAgentTools([lenient]).writer?.absolutePath).toBe(false);
  });

  it("recognises Claude Code's StructuredOutput tool by its description, not its name", () => {
    const renamed = { ...CLAUDE_STRUCTURED_OUTPUT_TOOL, name: 'final_output' };
    expect(chooseAgentTools([...CLAUDE_CODE_TOOLS, renamed]).structuredOutput?.name).toBe('final_output');
    expect(chooseAgentTools(CLAUDE_CODE_TOOLS).structuredOutput).toBeUndefined();
  });

  it('keeps the chat tool loop for tools that are not an agent’s (no shell, and no file named)', () => {
    const search: ToolDefinition = {
      name: 'search',
      description: 'web search',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    };
    const reader: ToolDefinition = {
      name: 'read',
      description: 'Read a document',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    };
    const chat: Message[] = [
      { role: 'system', content: 'Answer.' },
      { role: 'user', content: '## Question\n\nWho wrote it?\n\n## Documents\n\n- memo_1977.txt' },
    ];
    expect(planAgentStep(chat, [search])).toBeUndefined();
    expect(planAgentStep(chat, [reader, search])).toBeUndefined();
  });

  it('answers at once when an agent’s tools are offered but no file is named', () => {
    const step = planAgentStep([{ role: 'user', content: 'say hi' }], CLAUDE_CODE_TOOLS);
    expect(step).toMatchObject({ kind: 'answer', afterTools: false });
  });

  it('reads the workspace skill a skills listing points at, not the CLI’s own built-in skills', () => {
    const listing: Message = {
      role: 'system',
      content: [
        '<skills_instructions>',
        '## Skills',
        'A skill is a set of local instructions to follow that is stored in a `SKILL.md` file.',
        '### Skill roots',
        '- `r0` = `/home/user/.codex/skills/.system`',
        `- \`r1\` = \`${WORKSPACE}/.agents/skills\``,
        '### Available skills',
        '- imagegen: Generate images (file: r0/imagegen/SKILL.md)',
        '- skillopt-target: The trained skill (file: r1/skillopt-target/SKILL.md)',
        '</skills_instructions>',
        `<environment_context><cwd>${WORKSPACE}</cwd></environment_context>`,
      ].join('\n'),
    };
    const conversation: Message[] = [listing, { role: 'user', content: 'Read `task.md` and answer.' }];
    const first = planAgentStep(conversation, CODEX_TOOLS);
    expect(first).toMatchObject({ kind: 'read', file: 'task.md', input: { cmd: 'cat task.md' } });
    const afterTask: Message[] = [
      ...conversation,
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'exec_command', input: { cmd: 'cat task.md' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'exec_command', output: 'Process exited with code 0\nOutput:\nWho wrote it?\n' }],
      },
    ];
    expect(planAgentStep(afterTask, CODEX_TOOLS)).toMatchObject({
      kind: 'read',
      file: `${WORKSPACE}/.agents/skills/skillopt-target/SKILL.md`,
      input: { cmd: `cat ${WORKSPACE}/.agents/skills/skillopt-target/SKILL.md` },
    });
  });

  it('takes a read whose shell reports a non-zero exit as failed and tries once more, but reads a file that only mentions an exit code', () => {
    const codexMessages: Message[] = [
      { role: 'system', content: `<environment_context><cwd>${WORKSPACE}</cwd></environment_context>` },
      { role: 'user', content: 'Read `task.md` and answer.' },
    ];
    const round = (id: string, output: string): Message[] => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'exec_command', input: { cmd: 'cat task.md' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'exec_command', output }] },
    ];
    const refused = 'Chunk ID: 8c\nWall time: 0.0 seconds\nProcess exited with code 1\nOutput:\nbwrap: execvp codex-linux-sandbox: No such file or directory\n';
    const afterRefusal = [...codexMessages, ...round('c1', refused)];
    expect(planAgentStep(afterRefusal, CODEX_TOOLS)).toMatchObject({ kind: 'read', file: 'task.md', input: { cmd: 'cat task.md' } });
    const gaveUp = planAgentStep([...afterRefusal, ...round('c2', refused)], CODEX_TOOLS);
    expect(gaveUp?.kind === 'answer' ? [...gaveUp.reading.filesRead.keys()] : gaveUp).toEqual([]);
    const mentions = 'Process exited with code 0\nOutput:\nWhy does the job end with "exit code: 1"?\n';
    const read = planAgentStep([...codexMessages, ...round('c1', mentions)], CODEX_TOOLS);
    expect(read?.kind === 'answer' ? read.reading.filesRead.get('task.md') : read).toBe('Why does the job end with "exit code: 1"?');
  });
});
