import type { GenerateResult, Message, ToolCall, ToolDefinition } from '@skillopt/contract';
import { createAnswerKey, createSimulatedModel, DEFAULT_TENDENCY_RATES } from '../src/index';
import { CLAUDE_CODE_TOOLS, CLAUDE_STRUCTURED_OUTPUT_TOOL, CODEX_TOOLS } from './cli-tool-lists';
import { claudeCodeMessages, codexMessages, taskFile, withToolRound } from './spreadsheet-agent-helpers';
import { FOUR_RULE_SKILL, SPREADSHEET_INITIAL_SKILL, spreadsheetItems, type SpreadsheetItem } from './spreadsheet-helpers';

const WORKSPACE = '/tmp/skillopt-agent-workspace';
const items = spreadsheetItems(3);
/** Item 0 has numbers, text and a date among its answers: every spreadsheet class can show on it. */
const item = items[0] as SpreadsheetItem;
const key = createAnswerKey(items.map((entry) => entry.item));
/** Every latent tendency on, so the initial skill's script shows all four classes and the fixing rules remove them all. */
const target = createSimulatedModel({
  role: 'target',
  seed: 3,
  answerKey: key,
  tendencyRates: Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, 1])),
});

const FAULT_LINES = [
  /sheet_name = "(?:Result|Output|Results|Answers)"/,
  /value = "'" \+ str\(value\)/,
  /value = as_formula\(value\)/,
  /cell = f"\{column\}\{row \+ 1\}"/,
];
const RUN_ALL =
  'python3 solve.py inputs/1.xlsx outputs/1.xlsx && python3 solve.py inputs/2.xlsx outputs/2.xlsx && python3 solve.py inputs/3.xlsx outputs/3.xlsx';

const numbered = (text: string) =>
  text
    .split('\n')
    .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
    .join('\n');

async function next(messages: readonly Message[], tools: readonly ToolDefinition[]): Promise<GenerateResult & { call?: ToolCall }> {
  const result = await target.generate({ messages: [...messages], tools: [...tools], purpose: 'rollout' });
  const call = result.toolCalls?.[0];
  return { ...result, ...(call !== undefined ? { call } : {}) };
}

/** The input of the step's tool call (the step must be one). */
function inputOf(step: { call?: ToolCall }): Record<string, unknown> {
  if (step.call === undefined) throw new Error('the step made no tool call');
  return step.call.input as Record<string, unknown>;
}

/** Claude Code's turn up to the run: Read task.md, then the model's next step. */
async function claudeCodeAfterRead(skill: string, tools: readonly ToolDefinition[] = CLAUDE_CODE_TOOLS) {
  let messages = claudeCodeMessages(WORKSPACE, skill);
  const read = await next(messages, tools);
  expect(read.call).toMatchObject({ toolName: 'Read', input: { file_path: `${WORKSPACE}/task.md` } });
  messages = withToolRound(messages, read.call as ToolCall, numbered(taskFile(item)));
  return { messages, step: await next(messages, tools) };
}

describe('the simulated target as a coding agent on a spreadsheet task', () => {
  it('Claude Code: reads task.md, writes solve.py with Write, runs every pair in one python3 command, then replies', async () => {
    const { messages: afterRead, step: write } = await claudeCodeAfterRead(SPREADSHEET_INITIAL_SKILL);
    expect(write.call?.toolName).toBe('Write');
    const written = write.call?.input as { file_path: string; content: string };
    expect(written.file_path).toBe(`${WORKSPACE}/solve.py`);
    expect(written.content).toMatch(/^import sys$/m);
    expect(written.content).toContain('INPUT_PATH, OUTPUT_PATH = sys.argv[1], sys.argv[2]');
    expect(written.content).toContain('os.makedirs(os.path.dirname(OUTPUT_PATH) or ".", exist_ok=True)');
    for (const fault of FAULT_LINES) expect(written.content).toMatch(fault);
    // Its functions (the fault lines) before the case table: an env showing a long file's head still shows them.
    expect(written.content.indexOf('def write(')).toBeLessThan(written.content.indexOf('CASES = ['));
    expect(write.providerMetadata?.simulatedFailureClasses).toEqual(['wrong-sheet', 'numbers-as-text', 'formula-not-value', 'off-by-one-range']);

    const afterWrite = withToolRound(afterRead, write.call as ToolCall, `File created successfully at: ${WORKSPACE}/solve.py`);
    const run = await next(afterWrite, CLAUDE_CODE_TOOLS);
    expect(run.call?.toolName).toBe('Bash');
    expect(String(inputOf(run).command)).toBe(RUN_ALL);

    const final = await next(withToolRound(afterWrite, run.call as ToolCall, ''), CLAUDE_CODE_TOOLS);
    expect(final.toolCalls).toBeUndefined();
    expect(final.text).toMatch(/^I wrote solve\.py, .* it saved outputs\/1\.xlsx, outputs\/2\.xlsx and outputs\/3\.xlsx\.$/);
    expect(final.text.split('\n')).toHaveLength(1);
    expect(final.providerMetadata?.savedWorkbooks).toEqual(['outputs/1.xlsx', 'outputs/2.xlsx', 'outputs/3.xlsx']);
  });

  it('writes none of the failure-class lines under a skill with the four fixing rules', async () => {
    const { step } = await claudeCodeAfterRead(FOUR_RULE_SKILL);
    const content = String(inputOf(step).content);
    for (const fault of FAULT_LINES) expect(content).not.toMatch(fault);
    expect(step.providerMetadata?.simulatedFailureClasses).toEqual([]);
  });

  it('Codex: reads task.md with cat, writes solve.py with a quoted heredoc through exec_command, runs it, replies', async () => {
    let messages = codexMessages(WORKSPACE, SPREADSHEET_INITIAL_SKILL);
    const read = await next(messages, CODEX_TOOLS);
    expect(read.call).toMatchObject({ toolName: 'exec_command', input: { cmd: 'cat task.md' } });
    messages = withToolRound(messages, read.call as ToolCall, `Process exited with code 0\nOutput:\n${taskFile(item)}`);
    const write = await next(messages, CODEX_TOOLS);
    const heredoc = String(inputOf(write).cmd);
    expect(heredoc).toMatch(/^cat > solve\.py <<'SKILLOPT_SIM_EOF'\n# Written by the SkillOpt simulated model/);
    expect(heredoc).toMatch(/\nSKILLOPT_SIM_EOF$/);
    for (const fault of FAULT_LINES) expect(heredoc).toMatch(fault);
    messages = withToolRound(messages, write.call as ToolCall, 'Process exited with code 0\nOutput:\n');
    const run = await next(messages, CODEX_TOOLS);
    expect(run.call?.input).toEqual({ cmd: RUN_ALL });
    messages = withToolRound(messages, run.call as ToolCall, 'Chunk ID: 1\nWall time: 0.4 seconds\nProcess exited with code 0\nOutput:\n');
    const final = await next(messages, CODEX_TOOLS);
    expect(final.toolCalls).toBeUndefined();
    expect(final.text).toContain('it saved outputs/1.xlsx, outputs/2.xlsx and outputs/3.xlsx');
  });

  it('after a refused or failed run, runs each pair on its own (absolute paths), then says what it saved and what failed', async () => {
    const { messages: afterRead, step: write } = await claudeCodeAfterRead(FOUR_RULE_SKILL);
    let messages = withToolRound(afterRead, write.call as ToolCall, 'File created successfully');
    const together = await next(messages, CLAUDE_CODE_TOOLS);
    messages = withToolRound(messages, together.call as ToolCall, "Claude requested permissions to use Bash, but you haven't granted it yet.", true);
    const commands: string[] = [];
    const results = ['', 'Exit code 1\nTraceback (most recent call last):\n  File "solve.py", line 3\nKeyError: Sheet1', ''];
    for (const result of results) {
      const alone = await next(messages, CLAUDE_CODE_TOOLS);
      commands.push(String(inputOf(alone).command));
      messages = withToolRound(messages, alone.call as ToolCall, result, result !== '');
    }
    expect(commands).toEqual([1, 2, 3].map((name) => `python3 ${WORKSPACE}/solve.py ${WORKSPACE}/inputs/${name}.xlsx ${WORKSPACE}/outputs/${name}.xlsx`));
    const final = await next(messages, CLAUDE_CODE_TOOLS);
    expect(final.toolCalls).toBeUndefined();
    expect(final.text).toContain("one command failed (Claude requested permissions to use Bash, but you haven't granted it yet.)");
    expect(final.text).toContain('it saved outputs/1.xlsx and outputs/3.xlsx; outputs/2.xlsx failed (Exit code 1 Traceback');
    expect(final.providerMetadata?.savedWorkbooks).toEqual(['outputs/1.xlsx', 'outputs/3.xlsx']);
  });

  it("reads Claude Code's approval refusal as a failed run even without is_error", async () => {
    const { messages: afterRead, step: write } = await claudeCodeAfterRead(FOUR_RULE_SKILL);
    const afterWrite = withToolRound(afterRead, write.call as ToolCall, 'File created successfully');
    const together = await next(afterWrite, CLAUDE_CODE_TOOLS);
    const refusal = `This Bash command contains multiple operations. The following parts require approval: ${RUN_ALL.split(' && ').join(', ')}`;
    const retry = await next(withToolRound(afterWrite, together.call as ToolCall, refusal), CLAUDE_CODE_TOOLS);
    expect(String(inputOf(retry).command)).toBe(`python3 ${WORKSPACE}/solve.py ${WORKSPACE}/inputs/1.xlsx ${WORKSPACE}/outputs/1.xlsx`);
  });

  it('Codex: a non-zero exit of the run is a failure, and a failure of every retry ends with nothing saved', async () => {
    let messages = codexMessages(WORKSPACE, FOUR_RULE_SKILL);
    const read = await next(messages, CODEX_TOOLS);
    messages = withToolRound(messages, read.call as ToolCall, `Process exited with code 0\nOutput:\n${taskFile(item)}`);
    const write = await next(messages, CODEX_TOOLS);
    messages = withToolRound(messages, write.call as ToolCall, 'Process exited with code 0\nOutput:\n');
    let step = await next(messages, CODEX_TOOLS);
    const commands: string[] = [];
    while (step.call !== undefined) {
      commands.push(String((step.call.input as { cmd: string }).cmd));
      messages = withToolRound(messages, step.call, 'Process exited with code 127\nOutput:\nbash: python3: command not found\n');
      step = await next(messages, CODEX_TOOLS);
    }
    expect(commands).toHaveLength(4);
    expect(commands[0]).toBe(RUN_ALL);
    expect(step.text).toMatch(
      /that failed too \(bash: python3: command not found\), so I saved none of outputs\/1\.xlsx, outputs\/2\.xlsx and outputs\/3\.xlsx\.$/,
    );
  });

  it('writes the script with the shell after a failed Write, and gives up after a second failure', async () => {
    const { messages: afterRead, step: write } = await claudeCodeAfterRead(FOUR_RULE_SKILL);
    let messages = withToolRound(afterRead, write.call as ToolCall, 'Error: EACCES: permission denied', true);
    const second = await next(messages, CLAUDE_CODE_TOOLS);
    expect(second.call?.toolName).toBe('Bash');
    expect(String(inputOf(second).command)).toMatch(/^cat > solve\.py <<'SKILLOPT_SIM_EOF'\n/);
    messages = withToolRound(messages, second.call as ToolCall, 'Permission to use Bash with command cat has been denied.', true);
    const final = await next(messages, CLAUDE_CODE_TOOLS);
    expect(final.toolCalls).toBeUndefined();
    expect(final.text).toBe(
      'I could not write solve.py (Permission to use Bash with command cat has been denied.), so I saved none of outputs/1.xlsx, outputs/2.xlsx and outputs/3.xlsx.',
    );
  });

  it("gives the closing paragraph through Claude Code's StructuredOutput tool first, when offered, then as text", async () => {
    const tools = [...CLAUDE_CODE_TOOLS, CLAUDE_STRUCTURED_OUTPUT_TOOL];
    const { messages: afterRead, step: write } = await claudeCodeAfterRead(FOUR_RULE_SKILL, tools);
    expect(write.call?.toolName).toBe('Write');
    const afterWrite = withToolRound(afterRead, write.call as ToolCall, 'File created successfully');
    const run = await next(afterWrite, tools);
    const afterRun = withToolRound(afterWrite, run.call as ToolCall, '');
    const structured = await next(afterRun, tools);
    expect(structured.call?.toolName).toBe('StructuredOutput');
    expect(String(inputOf(structured).final_response)).toContain('it saved outputs/1.xlsx');
    const final = await next(withToolRound(afterRun, structured.call as ToolCall, 'Structured output provided successfully'), tools);
    expect(final.toolCalls).toBeUndefined();
    expect(final.text).toContain('it saved outputs/1.xlsx');
  });

  it('without a shell tool writes nothing and says it could not run code', async () => {
    const readerOnly = CLAUDE_CODE_TOOLS.filter((tool) => tool.name !== 'Bash');
    const { step } = await claudeCodeAfterRead(FOUR_RULE_SKILL, readerOnly);
    expect(step.toolCalls).toBeUndefined();
    expect(step.text).toMatch(/no shell to run Python with, so I could not run code: I wrote no script/);
  });

  it('repeats the same step for the same conversation (a retried request), whatever came before', async () => {
    const { messages, step } = await claudeCodeAfterRead(SPREADSHEET_INITIAL_SKILL);
    await next(claudeCodeMessages(WORKSPACE, FOUR_RULE_SKILL), CLAUDE_CODE_TOOLS);
    const again = await next(messages, CLAUDE_CODE_TOOLS);
    expect(again.toolCalls).toEqual(step.toolCalls);
  });

  it('answers an unknown task as before, from what it read', async () => {
    let messages = claudeCodeMessages(WORKSPACE, FOUR_RULE_SKILL);
    const read = await next(messages, CLAUDE_CODE_TOOLS);
    const unknown = taskFile({ ...item, item: { ...item.item, question: 'Sort the ledger of a task nobody registered by its second column.' } });
    messages = withToolRound(messages, read.call as ToolCall, numbered(unknown));
    const reply = await next(messages, CLAUDE_CODE_TOOLS);
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.providerMetadata).toMatchObject({ agentStep: 'answer', knownQuestion: false });
    expect(reply.text).not.toBe('');
  });
});
