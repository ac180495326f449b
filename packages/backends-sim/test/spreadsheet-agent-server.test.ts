import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createAnswerKey, createSimulatorServer, DEFAULT_TENDENCY_RATES, readSkillRules, type SimulatorServer } from '../src/index';
import { decideSpreadsheetBehaviour } from '../src/spreadsheet-target';
import { CLAUDE_CODE_TOOLS, codexResponsesTools } from './cli-tool-lists';
import { buildInputWorkbooks, checkOutputs, requireSystemOpenpyxl, SPREADSHEET_AGENT_PROMPT, spreadsheetWorkspace } from './spreadsheet-agent-helpers';
import { FOUR_RULE_SKILL, SPREADSHEET_INITIAL_SKILL, spreadsheetItems, type SpreadsheetItem } from './spreadsheet-helpers';

/**
 * The simulated model as a spreadsheet agent's model over the loopback server, with the real SDKs;
 * the test plays the harness: it runs each tool call in a real workspace (the script with Debian's
 * python3 and openpyxl) and sends the result back, until the final text; then it reads the output
 * workbooks back with openpyxl.
 */

const SEED = 7;
const items = spreadsheetItems(12);
const key = createAnswerKey(items.map((entry) => entry.item));
let server: SimulatorServer;
let inputs: string;
const roots: string[] = [];
/** Each run starts python processes (the script once per case, openpyxl to read back): more than the default on a busy machine. */
const REAL_PYTHON_TIMEOUT_MS = 120_000;

/** An item whose script shows a failure class under the initial skill and none under the four fixing rules. */
function itemTheRulesFix(): { item: SpreadsheetItem; classes: string[] } {
  for (const candidate of items) {
    const entry = key.lookup(candidate.item.question as string);
    if (entry?.workbookCases === undefined) continue;
    const decide = (skill: string) =>
      decideSpreadsheetBehaviour(
        { seed: SEED, noise: 0, tendencyRates: DEFAULT_TENDENCY_RATES },
        entry.normalizedQuestion,
        entry.workbookCases ?? [],
        skill,
        readSkillRules(skill),
        [],
      ).active;
    const classes = decide(SPREADSHEET_INITIAL_SKILL);
    if (classes.length > 0 && decide(FOUR_RULE_SKILL).length === 0) return { item: candidate, classes };
  }
  throw new Error('no item fails under the initial skill');
}
const { item, classes } = itemTheRulesFix();

beforeAll(async () => {
  requireSystemOpenpyxl();
  inputs = mkdtempSync(path.join(os.tmpdir(), 'sim-sheet-inputs-'));
  roots.push(inputs);
  buildInputWorkbooks(item, inputs);
  server = await createSimulatorServer({ port: 0, seed: SEED, noise: 0, items: items.map((entry) => entry.item) });
});
afterAll(async () => {
  await server?.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function workspaceFor(spreadsheetItem: SpreadsheetItem): { workspace: string; bin: string } {
  const made = spreadsheetWorkspace(spreadsheetItem, inputs);
  roots.push(path.dirname(made.workspace));
  return made;
}

/** The harness's shell: bash in the workspace, Debian's python3 first on PATH. */
function shell(workspace: string, bin: string, command: string): { status: number; output: string } {
  const run = spawnSync('bash', ['-c', command], { cwd: workspace, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
  return { status: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
}

const MAXIMUM_ROUNDS = 10;

/** Claude Code as the harness: Read numbers lines, Write creates the file, Bash reports a failure as an is_error "Exit code N". */
async function claudeCodeRun(skill: string, options: { brokenPython?: boolean } = {}) {
  const { workspace, bin } = workspaceFor(item);
  if (options.brokenPython === true) {
    // A python3 that always fails, as a refused or broken interpreter would.
    rmSync(path.join(bin, 'python3'));
    writeFileSync(path.join(bin, 'python3'), '#!/bin/sh\necho "python3: cannot run here" >&2\nexit 2\n', { mode: 0o755 });
  }
  const client = new Anthropic({ baseURL: server.origin, apiKey: 'any-key', maxRetries: 0 });
  const reminder = `<system-reminder>\nContents of ${workspace}/CLAUDE.md (project instructions, checked into the codebase):\n\n${skill}\n</system-reminder>`;
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: reminder },
        { type: 'text', text: SPREADSHEET_AGENT_PROMPT },
      ],
    },
  ];
  const calls: Array<{ name: string; input: Record<string, unknown> }> = [];
  for (let round = 0; round < MAXIMUM_ROUNDS; round += 1) {
    const message = await client.messages
      .stream({
        model: 'sim-target',
        max_tokens: 32000,
        system: [{ type: 'text', text: `You are Claude Code.\n\n# Environment\nPrimary working directory: ${workspace}` }],
        messages,
        tools: CLAUDE_CODE_TOOLS.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
        })),
      })
      .finalMessage();
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (message.stop_reason !== 'tool_use')
      return { workspace, calls, text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join('') };
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) {
      const input = use.input as Record<string, string>;
      calls.push({ name: use.name, input });
      if (use.name === 'Read') {
        const lines = readFileSync(String(input.file_path), 'utf8').split('\n');
        results.push({ type: 'tool_result', tool_use_id: use.id, content: lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n') });
      } else if (use.name === 'Write') {
        const file = String(input.file_path);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, String(input.content));
        results.push({ type: 'tool_result', tool_use_id: use.id, content: `File created successfully at: ${file}` });
      } else if (use.name === 'Bash') {
        const run = shell(workspace, bin, String(input.command));
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content: run.status === 0 ? run.output : `Exit code ${run.status}\n${run.output}`,
          ...(run.status === 0 ? {} : { is_error: true }),
        });
      } else results.push({ type: 'tool_result', tool_use_id: use.id, content: `No such tool available: ${use.name}`, is_error: true });
    }
    messages.push({ role: 'user', content: results });
  }
  throw new Error(`the agent did not finish in ${MAXIMUM_ROUNDS} rounds`);
}

/** Codex as the harness: one exec_command shell, its result "Process exited with code N" then the output. */
async function codexRun(skill: string) {
  const { workspace, bin } = workspaceFor(item);
  const skillDirectory = path.join(workspace, '.agents', 'skills', 'skillopt-target');
  mkdirSync(skillDirectory, { recursive: true });
  writeFileSync(path.join(skillDirectory, 'SKILL.md'), `---\nname: skillopt-target\ndescription: The trained skill\n---\n\n${skill}`);
  const client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInputItem[] = [
    {
      role: 'developer',
      content: [
        {
          type: 'input_text',
          text: `<skills_instructions>\n### Available skills\n- skillopt-target: The trained skill (file: ${workspace}/.agents/skills/skillopt-target/SKILL.md)\n</skills_instructions>`,
        },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${workspace}</cwd>\n  <shell>bash</shell>\n</environment_context>` }],
    },
    { role: 'user', content: [{ type: 'input_text', text: SPREADSHEET_AGENT_PROMPT }] },
  ];
  const commands: string[] = [];
  for (let round = 0; round < MAXIMUM_ROUNDS; round += 1) {
    const stream = await client.responses.create({
      model: 'sim-target',
      input,
      tools: codexResponsesTools(),
      stream: true,
    });
    const calls: OpenAI.Responses.ResponseFunctionToolCall[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call') calls.push(event.item);
      if (event.type === 'response.completed') completed = event.response;
    }
    if (calls.length === 0) {
      const message = completed?.output.find((entry) => entry.type === 'message');
      const text = message?.type === 'message' ? message.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('') : '';
      return { workspace, commands, text };
    }
    for (const call of calls) {
      const command = String((JSON.parse(call.arguments) as { cmd: string }).cmd);
      commands.push(command);
      const run = shell(workspace, bin, command);
      input.push(call, { type: 'function_call_output', call_id: call.call_id, output: `Process exited with code ${run.status}\nOutput:\n${run.output}` });
    }
  }
  throw new Error(`the agent did not finish in ${MAXIMUM_ROUNDS} rounds`);
}

const ALL_CASES = () => item.cases.map(() => true);
const NO_CASE = () => item.cases.map(() => false);

describe('the simulated spreadsheet agent through the server, its script run for real', () => {
  it(
    'Claude Code over Messages: Read, Write solve.py, one Bash python3 run; the outputs are right with the fixing rules',
    async () => {
      const run = await claudeCodeRun(FOUR_RULE_SKILL);
      expect(run.calls.map((call) => call.name)).toEqual(['Read', 'Write', 'Bash']);
      expect(run.calls[1]?.input.file_path).toBe(`${run.workspace}/solve.py`);
      expect(run.calls[2]?.input.command).toBe(
        item.cases.map((_, index) => `python3 solve.py inputs/${index + 1}.xlsx outputs/${index + 1}.xlsx`).join(' && '),
      );
      const check = checkOutputs(run.workspace, item);
      expect(check.passed).toEqual(ALL_CASES());
      expect(check.got).toEqual(item.cases.map((spreadsheetCase) => spreadsheetCase.answers.map((cell) => cell.value)));
      expect(run.text).toMatch(/^I wrote solve\.py, .*it saved outputs\/1\.xlsx, outputs\/2\.xlsx and outputs\/3\.xlsx\.$/);
    },
    REAL_PYTHON_TIMEOUT_MS,
  );

  it(
    'Claude Code over Messages: with the initial skill the saved workbooks show the failure the script has',
    async () => {
      const run = await claudeCodeRun(SPREADSHEET_INITIAL_SKILL);
      expect(run.calls.map((call) => call.name)).toEqual(['Read', 'Write', 'Bash']);
      const check = checkOutputs(run.workspace, item);
      expect(check.got.every((values) => values !== null)).toBe(true); // every output was saved: the failure is in the cells
      expect(check.passed).toEqual(NO_CASE());
      // This item's habits (seed 7): its values go in as formulas, so openpyxl saves no cached value to read back, one row low, numbers as text.
      expect(classes).toEqual(['numbers-as-text', 'formula-not-value', 'off-by-one-range']);
      expect(check.got).toEqual(item.cases.map((spreadsheetCase) => spreadsheetCase.answers.map(() => null)));
      const script = readFileSync(path.join(run.workspace, 'solve.py'), 'utf8');
      expect(script).toContain('value = as_formula(value)');
      expect(script).toContain('cell = f"{column}{row + 1}"');
      expect(script).toContain('value = "\'" + str(value)');
    },
    REAL_PYTHON_TIMEOUT_MS,
  );

  it(
    'Codex over Responses: cat task.md and SKILL.md, a heredoc writes solve.py, one python3 run; the outputs are right with the fixing rules',
    async () => {
      const fixed = await codexRun(FOUR_RULE_SKILL);
      expect(fixed.commands).toHaveLength(4);
      expect(fixed.commands.slice(0, 2)).toEqual(['cat task.md', `cat ${fixed.workspace}/.agents/skills/skillopt-target/SKILL.md`]);
      expect(fixed.commands[2]).toMatch(/^cat > solve\.py <<'SKILLOPT_SIM_EOF'\n/);
      expect(fixed.commands[3]).toMatch(/^python3 solve\.py inputs\/1\.xlsx outputs\/1\.xlsx && /);
      expect(checkOutputs(fixed.workspace, item).passed).toEqual(ALL_CASES());
      expect(fixed.text).toContain('it saved outputs/1.xlsx, outputs/2.xlsx and outputs/3.xlsx');
    },
    REAL_PYTHON_TIMEOUT_MS,
  );

  it(
    'Codex over Responses: with the initial skill the saved workbooks are wrong',
    async () => {
      const initial = await codexRun(SPREADSHEET_INITIAL_SKILL);
      expect(initial.commands).toHaveLength(4);
      const check = checkOutputs(initial.workspace, item);
      expect(check.got.every((values) => values !== null)).toBe(true);
      expect(check.passed).toEqual(NO_CASE());
    },
    REAL_PYTHON_TIMEOUT_MS,
  );

  it(
    'Claude Code: a run that fails in the shell is retried pair by pair, and the reply says it failed',
    async () => {
      const run = await claudeCodeRun(FOUR_RULE_SKILL, { brokenPython: true });
      const commands = run.calls.filter((call) => call.name === 'Bash').map((call) => call.input.command);
      expect(commands).toHaveLength(1 + item.cases.length);
      expect(commands.slice(1)).toEqual(
        item.cases.map((_, index) => `python3 ${run.workspace}/solve.py ${run.workspace}/inputs/${index + 1}.xlsx ${run.workspace}/outputs/${index + 1}.xlsx`),
      );
      expect(run.text).toMatch(/one command failed \(Exit code 2 python3: cannot run here\).*that failed too .*so I saved none of outputs\/1\.xlsx/);
      expect(checkOutputs(run.workspace, item).got).toEqual(NO_CASE().map(() => null));
    },
    REAL_PYTHON_TIMEOUT_MS,
  );
});
