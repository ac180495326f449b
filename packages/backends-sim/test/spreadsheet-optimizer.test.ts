import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatModel, Message, ScoredRollout } from '@skillopt/contract';
import { agentOptimizerRequest, reflect } from '@skillopt/optimizer';
import { createAnswerKey, createSimulatedModel, DEFAULT_TENDENCY_RATES, readSkillRules, SPREADSHEET_FAILURE_CLASSES, type FailureClass } from '../src/index';
import { diagnoseSpreadsheetTrajectory } from '../src/spreadsheet-diagnosis';
import { CLAUDE_CODE_TOOLS } from './cli-tool-lists';
import { agentScript, SPREADSHEET_AGENT_PROMPT, taskFile } from './spreadsheet-agent-helpers';
import { runScripts, scriptOf, SPREADSHEET_INITIAL_SKILL, spreadsheetItems, userPrompt, writeScript, type SpreadsheetItem } from './spreadsheet-helpers';

// Each test runs the scripts of its trajectories in Python, which a loaded machine slows many times
// over: the limit is there to catch a hang, not to time the scripts.
jest.setTimeout(300_000);

// The simulated optimizer reading failed spreadsheet trajectories: the target's real scripts, run
// with python and openpyxl, reported as the env reports them, rendered by the real optimizer.

const items = spreadsheetItems(6);
const key = createAnswerKey(items.map((item) => item.item));
const only = (failureClass: FailureClass): ChatModel =>
  createSimulatedModel({
    role: 'target',
    seed: 5,
    answerKey: key,
    tendencyRates: Object.fromEntries(Object.keys(DEFAULT_TENDENCY_RATES).map((name) => [name, name === failureClass ? 1 : 0])),
  });

function shown(value: unknown): string {
  return value === null ? 'None' : JSON.stringify(value);
}

/** The env's evaluation turn: one line per case, then the cells of the first failed case. */
function evaluation(item: SpreadsheetItem, script: string): { text: string; passed: number } {
  const results = runScripts(item.cases.map((spreadsheetCase) => ({ script, spreadsheetCase })));
  const lines = [`Evaluation (${results.length} test cases; the final script was run on each)`];
  results.forEach((result, index) => {
    const answers = item.cases[index]?.answers ?? [];
    const wrong = answers.findIndex((cell, at) => JSON.stringify(cell.value) !== JSON.stringify(result.got[at] ?? null));
    const first = answers[wrong];
    lines.push(
      result.passed
        ? `Case ${index + 1}: PASS`
        : `Case ${index + 1}: FAIL: ${first?.sheet}!${first?.cell}: expected ${shown(first?.value)}, got ${shown(result.got[wrong] ?? null)}`,
    );
  });
  const passed = results.filter((result) => result.passed).length;
  lines.push(`Result: ${passed} of ${results.length} cases passed`, 'Cells of case 1 (expected | got):');
  const firstCase = item.cases[0]?.answers ?? [];
  firstCase.forEach((cell, at) => {
    const got = results[0]?.got[at] ?? null;
    lines.push(
      `${cell.sheet}!${cell.cell}: expected ${shown(cell.value)} | got ${shown(got)} ${JSON.stringify(got) === JSON.stringify(cell.value) ? '✓' : '✗'}`,
    );
  });
  return { text: lines.join('\n'), passed };
}

async function failedRollout(model: ChatModel, item: SpreadsheetItem): Promise<ScoredRollout> {
  const reply = await writeScript(model, SPREADSHEET_INITIAL_SKILL, item);
  const { text, passed } = evaluation(item, scriptOf(reply));
  return {
    status: 'scored',
    id: item.item.id,
    taskType: 'cell_level',
    hard: passed === item.cases.length ? 1 : 0,
    soft: passed / item.cases.length,
    prediction: `${passed} of ${item.cases.length} cases passed`,
    trajectory: {
      turns: [
        { role: 'user', content: userPrompt(item) },
        { role: 'assistant', content: reply },
        { role: 'environment', content: text },
      ],
    },
  };
}

/**
 * A failed agent rollout as env-spreadsheetbench's agent mode records it: the prompt with task.md,
 * the closing paragraph followed by the scripts left in the workspace, and the evaluation (the same
 * faults as the chat script's).
 */
async function failedAgentRollout(model: ChatModel, item: SpreadsheetItem): Promise<ScoredRollout> {
  const script = await agentScript(model, item, SPREADSHEET_INITIAL_SKILL);
  const { text, passed } = evaluation(item, scriptOf(await writeScript(model, SPREADSHEET_INITIAL_SKILL, item)));
  const closing = 'I wrote solve.py and ran it with python3: it saved outputs/1.xlsx, outputs/2.xlsx and outputs/3.xlsx.';
  return {
    status: 'scored',
    id: item.item.id,
    taskType: 'cell_level',
    hard: 0,
    soft: passed / item.cases.length,
    prediction: `${passed} of ${item.cases.length} cases passed`,
    trajectory: {
      turns: [
        { role: 'user', content: `${SPREADSHEET_AGENT_PROMPT}\n\ntask.md:\n\n${taskFile(item)}` },
        { role: 'assistant', content: `${closing}\n\nThe scripts the agent left in its workspace:\n\nsolve.py:\n\`\`\`python\n${script}\`\`\`` },
        { role: 'environment', content: text },
      ],
    },
  };
}

const optimizer = (harmfulRuleRate = 0) => createSimulatedModel({ role: 'optimizer', seed: 5, harmfulRuleRate });

async function proposedRules(results: readonly ScoredRollout[], harmfulRuleRate = 0): Promise<string[]> {
  const reflection = await reflect({
    model: optimizer(harmfulRuleRate),
    signal: new AbortController().signal,
    skill: SPREADSHEET_INITIAL_SKILL,
    results,
    minibatchSize: 8,
    maxEditsPerAnalyst: 4,
    failureOnly: true,
  });
  return reflection.reports.flatMap((report) => report.edits.map((edit) => edit.content ?? ''));
}

describe('the simulated optimizer on spreadsheet trajectories', () => {
  it.each(SPREADSHEET_FAILURE_CLASSES)('reads %s off failed trajectories and proposes the rule that fixes it', async (failureClass) => {
    const results = await Promise.all(items.slice(0, 3).map((item) => failedRollout(only(failureClass), item)));
    expect(results.map((result) => result.hard)).toEqual([0, 0, 0]);
    const rules = await proposedRules(results);
    expect(rules.length).toBeGreaterThanOrEqual(1);
    // The answer classes are not misread in a script (no answer tag is missing from it).
    expect(rules.map((rule) => [...readSkillRules(rule).fixes])).toEqual(rules.map(() => [failureClass]));
  });

  it.each(SPREADSHEET_FAILURE_CLASSES)('reads %s off the solve.py of failed agent trajectories, as the agent mode records them', async (failureClass) => {
    const results = await Promise.all(items.slice(0, 3).map((item) => failedAgentRollout(only(failureClass), item)));
    const rules = await proposedRules(results);
    expect(rules.length).toBeGreaterThanOrEqual(1);
    expect(rules.map((rule) => [...readSkillRules(rule).fixes])).toEqual(rules.map(() => [failureClass]));
  });

  it('sees no class in a failure that is only a wrong value', () => {
    const report =
      'Evaluation (3 test cases; the final script was run on each)\nCase 1: FAIL: Sheet1!D2: expected 5, got 6\nCells of case 1 (expected | got):\nSheet1!D2: expected 5 | got 6 ✗';
    expect(diagnoseSpreadsheetTrajectory({ reply: '```python\nworkbook.save(OUTPUT_PATH)\n```', environment: report })).toEqual([]);
  });

  it('reads numbers as text and a shift by one row from the cell report alone, without the code', () => {
    const textReport = 'Evaluation (1 test cases; the final script was run on each)\nCells of case 1 (expected | got):\nSheet1!D2: expected 5 | got "\'5" ✗';
    expect(diagnoseSpreadsheetTrajectory({ environment: textReport })).toEqual(['numbers-as-text']);
    const shiftReport =
      'Evaluation (1 test cases; the final script was run on each)\nCells of case 1 (expected | got):\nSheet1!D2: expected 5 | got None ✗\nSheet1!D3: expected 7 | got 5 ✗\nSheet1!D4: expected 9 | got 7 ✗';
    expect(diagnoseSpreadsheetTrajectory({ environment: shiftReport })).toEqual(['off-by-one-range']);
  });

  it('at its harmful rate proposes a rule that causes a spreadsheet class', async () => {
    const results = await Promise.all(items.slice(0, 3).map((item) => failedRollout(only('wrong-sheet'), item)));
    const rules = await proposedRules(results, 1);
    const harms = rules.flatMap((rule) => [...readSkillRules(rule).harms]);
    expect(harms.length).toBeGreaterThanOrEqual(1);
    for (const harm of harms) expect(SPREADSHEET_FAILURE_CLASSES as readonly string[]).toContain(harm);
  });

  describe('as the optimizer agent’s model', () => {
    let workspace: string;
    beforeEach(() => {
      workspace = mkdtempSync(path.join(os.tmpdir(), 'sim-spreadsheet-agent-'));
    });
    afterEach(() => rmSync(workspace, { recursive: true, force: true }));

    it('diagnoses the same trajectories from trajectories/failed.md and writes the fixing rule into skill.md', async () => {
      const results = await Promise.all(items.slice(0, 3).map((item) => failedRollout(only('formula-not-value'), item)));
      const request = agentOptimizerRequest({ skill: SPREADSHEET_INITIAL_SKILL, results, maxEdits: 3, failureOnly: true });
      for (const file of request.files) {
        mkdirSync(path.dirname(path.join(workspace, file.path)), { recursive: true });
        writeFileSync(path.join(workspace, file.path), file.content);
      }
      const model = optimizer();
      const messages: Message[] = [
        { role: 'system', content: `You are a coding agent.\nWorking directory: ${workspace}` },
        { role: 'user', content: request.prompt },
      ];
      for (let round = 0; round < 8; round += 1) {
        const result = await model.generate({ messages, tools: [...CLAUDE_CODE_TOOLS], purpose: 'optimize' });
        if (result.toolCalls === undefined) break;
        messages.push({ role: 'assistant', content: result.toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })) });
        for (const call of result.toolCalls) {
          const input = call.input as Record<string, unknown>;
          const file = path.resolve(workspace, String(input.file_path ?? input.path));
          if (typeof input.content === 'string') writeFileSync(file, input.content);
          const output = typeof input.content === 'string' ? 'written' : readFileSync(file, 'utf8');
          messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output, isError: false }] });
        }
      }
      const revised = readFileSync(path.join(workspace, 'skill.md'), 'utf8');
      expect(revised).not.toBe(SPREADSHEET_INITIAL_SKILL);
      expect([...readSkillRules(revised).fixes]).toEqual(['formula-not-value']);
    });
  });
});
