import path from 'node:path';
import { addUsage, type Message, type RolloutContext, type RolloutResult, type TrajectoryTurn, type Usage } from '@skillopt/contract';
import { chatTargetModel, generateBefore, startItemDeadline } from '@skillopt/env-kit';
import { type CaseOutcome, evaluateWorkbooks, scoreScriptOnEveryCase } from './case-scoring.js';
import type { SpreadsheetBenchConfig } from './config.js';
import { describeCaseOutcome, describeEvaluation } from './evaluation-report.js';
import { extractScript } from './generated-code.js';
import type { SpreadsheetTaskItem } from './items.js';
import { buildSystemPrompt, buildUserPrompt, NO_CODE_FEEDBACK, scriptFailedFeedback, wrongCellsFeedback } from './prompt.js';
import { describeCellValue } from './workbook-answer.js';
import type { WorkbookRuntime } from './workbook-runtime.js';

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

/** The failure reason of a task whose replies held no code at all. */
const NO_CODE_REASON = 'no code: no reply held a Python script';

/** The result fields every rollout mode shares, from the final script's outcomes on every case. */
export function scoredResult(
  item: SpreadsheetTaskItem,
  runtime: WorkbookRuntime,
  outcomes: readonly CaseOutcome[],
  parts: { turns: TrajectoryTurn[]; usage: Usage; durationMs: number; code: string; details: Record<string, unknown> },
  evaluationHow?: string,
): RolloutResult {
  const passed = outcomes.filter((outcome) => outcome.pass).length;
  const firstFailure = outcomes.find((outcome) => !outcome.pass);
  const turns: TrajectoryTurn[] = [...parts.turns, { role: 'environment', content: describeEvaluation(outcomes, evaluationHow) }];
  return {
    status: 'scored',
    id: item.id,
    taskType: item.taskType,
    reference: `${item.cases.length} answer workbook${item.cases.length === 1 ? '' : 's'}, cells ${item.evaluatedPosition}`,
    usage: parts.usage,
    durationMs: parts.durationMs,
    hard: outcomes.length > 0 && passed === outcomes.length ? 1 : 0,
    soft: outcomes.length === 0 ? 0 : passed / outcomes.length,
    prediction: parts.code,
    trajectory: firstFailure === undefined ? { turns } : { turns, failureReason: `case ${firstFailure.number}: ${describeCaseOutcome(firstFailure)}` },
    details: {
      ...parts.details,
      cases: outcomes.map((outcome) => ({
        number: outcome.number,
        stage: outcome.stage,
        pass: outcome.pass,
        ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
      })),
      casesPassed: passed,
      sandbox: runtime.sandbox.kind,
      python: runtime.interpreter.pythonVersion,
      openpyxl: runtime.interpreter.openpyxlVersion,
    },
  };
}

/** The result of a task whose model left no script: a failure of the model, scored 0, with nothing run. */
export function noCodeResult(
  item: SpreadsheetTaskItem,
  runtime: WorkbookRuntime,
  parts: { turns: TrajectoryTurn[]; usage: Usage; durationMs: number; details: Record<string, unknown>; note?: string },
): RolloutResult {
  return {
    status: 'scored',
    id: item.id,
    taskType: item.taskType,
    usage: parts.usage,
    durationMs: parts.durationMs,
    hard: 0,
    soft: 0,
    prediction: '',
    trajectory: {
      turns: [...parts.turns, { role: 'environment', content: `Evaluation\n${NO_CODE_REASON}${parts.note ?? ''}` }],
      failureReason: NO_CODE_REASON,
    },
    details: { ...parts.details, cases: [], casesPassed: 0, sandbox: runtime.sandbox.kind },
  };
}

/**
 * Rolls a task out in codegen mode. `single`: one model call, one script. `multi`: up to
 * `max_turns` calls; each script is run on the first case's input, and a reply without code or a
 * script that fails gets that fed back; on training items (phase `train`) a script that ran is
 * also evaluated and the wrong cells are fed back with the values it wrote, never the expected
 * ones. Then the last script is scored on every case. Errors of the target, the run's abort and
 * the task's `exec_timeout` propagate: they are never scored.
 */
export async function rolloutCodegenTask(
  config: SpreadsheetBenchConfig,
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  context: RolloutContext,
): Promise<RolloutResult> {
  const model = chatTargetModel(context.target, 'spreadsheetbench');
  const started = Date.now();
  const deadline = startItemDeadline(context.signal, config.exec_timeout * 1000, model, `spreadsheetbench task ${item.id}`, item.id);
  try {
    const workDirectory = await context.workDirectory();
    const userPrompt = buildUserPrompt(item);
    const messages: Message[] = [
      { role: 'system', content: buildSystemPrompt(context.skill, config.allow_pandas) },
      { role: 'user', content: userPrompt },
    ];
    const turns: TrajectoryTurn[] = [{ role: 'user', content: userPrompt }];
    const evaluateOnFeedback = config.mode === 'multi' && context.phase === 'train';
    const maxCalls = config.mode === 'single' ? 1 : config.max_turns;
    const firstCase = item.cases[0];
    let usage = ZERO_USAGE;
    let code = '';
    let modelCalls = 0;
    let attemptsRun = 0;
    while (modelCalls < maxCalls) {
      const reply = await generateBefore(
        model,
        { messages: [...messages], maxOutputTokens: config.max_completion_tokens, purpose: 'rollout' },
        deadline.signal,
      );
      modelCalls += 1;
      usage = addUsage(usage, reply.usage);
      turns.push({ role: 'assistant', content: reply.text });
      const script = extractScript(reply.text);
      if (script !== '') code = script;
      if (config.mode === 'single' || firstCase === undefined) break;
      let feedback: string | undefined;
      if (script === '') feedback = NO_CODE_FEEDBACK;
      else {
        attemptsRun += 1;
        const run = await runtime.runScript({
          code: script,
          input: firstCase.input,
          directory: path.join(workDirectory, `attempt-${attemptsRun}`),
          timeoutMs: config.case_timeout * 1000,
          signal: deadline.signal,
        });
        if (!run.ok) feedback = scriptFailedFeedback(run.error ?? 'the script failed');
        else if (evaluateOnFeedback) {
          const [verdict] = await evaluateWorkbooks(runtime, item, [{ testCase: firstCase, prediction: run.outputPath }], deadline.signal);
          if (verdict !== undefined && !verdict.pass) {
            const missingSheets = verdict.reason?.startsWith('worksheet not found: ') ? verdict.reason.slice('worksheet not found: '.length).split(', ') : [];
            feedback = wrongCellsFeedback(
              verdict.mismatches.map((mismatch) => ({ cell: mismatch.cell, got: describeCellValue(mismatch.got) })),
              verdict.cellCount ?? verdict.mismatches.length,
              missingSheets,
            );
          }
        }
      }
      if (feedback === undefined || modelCalls >= maxCalls) break;
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: feedback });
      turns.push({ role: 'user', content: feedback });
    }
    const details = { mode: config.mode, modelCalls, attemptsRun, evaluatedOnFeedback: evaluateOnFeedback };
    if (code === '') return noCodeResult(item, runtime, { turns, usage, durationMs: Date.now() - started, details });
    const outcomes = await scoreScriptOnEveryCase(runtime, item, code, { workDirectory, caseTimeoutMs: config.case_timeout * 1000, signal: deadline.signal });
    return scoredResult(item, runtime, outcomes, { turns, usage, durationMs: Date.now() - started, code, details });
  } finally {
    deadline.dispose();
  }
}
