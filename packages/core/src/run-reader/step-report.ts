import path from 'node:path';
import { editSchema, type Edit, tolerantSchema } from '@skillopt/contract';
import { z } from 'zod';
import { readJsonFileIfExists } from '../run-store/read-json-file.js';
import { checkedRelativePath, skillVersionPath, stepDirectoryPath } from '../run-store/run-directory-layout.js';
import type { StepRecord } from '../run-store/step-record.js';
import { readRunEvents, readRunHistory, readRunState } from './run-reader.js';
import { excludedRollouts, type ExcludedRollout, type StageFailureReport } from './run-report.js';

/**
 * One step as the dashboard's step page shows it (`GET /api/runs/:name/steps/:step`): what the
 * analysts proposed and why, what was selected under the learning rate, how each selected edit
 * applied, the gate's decision with the items that flipped, and what was excluded or failed. Read
 * from the step's record and artifacts; an artifact the step did not write (no candidate, an
 * older release) is null, never an error.
 */
export interface StepReport {
  record: StepRecord;
  /** Each analyst's report: the items it read, its reasoning and the edits it proposed. */
  proposals: ProposalReport[];
  /** The edits selected to fit the step's learning rate (ranked when there were more than it allows). */
  selection: { learningRate: number | null; ranked: boolean; reasoning: string | null; edits: Edit[] } | null;
  /** How each selected edit applied to the skill. */
  applied: Array<{ index: number; edit: Edit; status: string; reason: string }> | null;
  gate: StepGateReport | null;
  exclusions: ExcludedRollout[];
  stageFailures: StageFailureReport[];
  /** The skill version the step produced, when the gate accepted it (`skill_v0003`). */
  acceptedVersionId: string | null;
}

export interface ProposalReport {
  /** The kind of analyst: `failure`, `success`, … */
  kind: string;
  minibatchIndex: number | null;
  itemIds: string[];
  reasoning: string | null;
  edits: Edit[];
}

export interface StepGateReport {
  strategy: string;
  action: string | null;
  accepted: boolean;
  reason: string;
  candidateScore: number;
  incumbentScore: number;
  itemsEvaluated: number | null;
  itemsTotal: number | null;
  /** True when the candidate's score is over `itemsEvaluated` of `itemsTotal` items only (the gate stopped early). */
  partial?: true;
  /** Selection items whose score went up or down between the incumbent and the candidate. */
  improved: ItemFlip[];
  regressed: ItemFlip[];
  /** Items scored on one side only (an exclusion on the other). */
  unpairedItems: number;
  vetoes: string[];
}

export interface ItemFlip {
  itemId: string;
  incumbent: number;
  candidate: number;
}

const editReader = tolerantSchema(editSchema);
const reflectionReader = z.looseObject({
  reports: z.array(
    z.looseObject({
      kind: z.string(),
      minibatchIndex: z.int().optional(),
      itemIds: z.array(z.string()).optional(),
      reasoning: z.string().optional(),
      edits: z.array(editReader).optional(),
    }),
  ),
});
const selectionReader = z.looseObject({
  learningRate: z.int().nullable().optional(),
  ranked: z.boolean().optional(),
  reasoning: z.string().optional(),
  edits: z.array(editReader),
});
const appliedReader = z.array(z.looseObject({ index: z.int(), edit: editReader, status: z.string(), reason: z.string() }));
const gateReader = z.looseObject({
  strategy: z.string(),
  action: z.string().optional(),
  accepted: z.boolean(),
  reason: z.string(),
  candidateScore: z.number(),
  incumbentScore: z.number(),
  itemsEvaluated: z.int().optional(),
  itemsTotal: z.int().optional(),
  itemDeltas: z.array(z.looseObject({ itemId: z.string(), candidate: z.number(), incumbent: z.number(), change: z.string() })).optional(),
  unpairedItems: z.array(z.unknown()).optional(),
  vetoes: z.array(z.unknown()).optional(),
});

/** The report of a committed step, or undefined when the run has not committed that step. */
export async function readStepReport(directory: string, step: number): Promise<StepReport | undefined> {
  const state = await readRunState(directory);
  if (state === undefined || !Number.isInteger(step) || step < 1 || step > state.lastCompletedStep) return undefined;
  const record = (await readRunHistory(directory, state.lastCompletedStep)).find((entry) => entry.step === step);
  if (record === undefined) return undefined;
  const artifact = <Schema extends z.ZodType>(name: string, schema: Schema) => readStepJson(directory, step, name, schema);
  const reflection = await artifact('reflection.json', reflectionReader);
  const selection = await artifact('ranked_edits.json', selectionReader);
  const applied = await artifact('edit_apply_report.json', appliedReader);
  const gate = await artifact('gate_decision.json', gateReader);
  const events = (await readRunEvents(directory)).events;
  return {
    record,
    proposals: (reflection?.reports ?? []).map((report) => ({
      kind: report.kind,
      minibatchIndex: report.minibatchIndex ?? null,
      itemIds: report.itemIds ?? [],
      reasoning: report.reasoning ?? null,
      edits: (report.edits ?? []) as Edit[],
    })),
    selection: selection
      ? {
          learningRate: selection.learningRate ?? null,
          ranked: selection.ranked ?? false,
          reasoning: selection.reasoning ?? null,
          edits: selection.edits as Edit[],
        }
      : null,
    applied: applied ? applied.map(({ index, edit, status, reason }) => ({ index, edit: edit as Edit, status, reason })) : null,
    gate: gate ? gateReportOf(gate) : null,
    exclusions: excludedRollouts(events, []).filter((item) => item.step === step),
    stageFailures: events.flatMap((event) =>
      event.type === 'stage-failed' && event.globalStep === step
        ? [{ stage: event.stage, prompt: event.prompt ?? null, step, epoch: event.epoch ?? null, reason: event.reason }]
        : [],
    ),
    acceptedVersionId: record.outcome === 'accepted' ? path.basename(skillVersionPath(step), '.md') : null,
  };
}

function gateReportOf(gate: z.infer<typeof gateReader>): StepGateReport {
  const flips = (change: string) =>
    (gate.itemDeltas ?? []).filter((delta) => delta.change === change).map(({ itemId, incumbent, candidate }) => ({ itemId, incumbent, candidate }));
  return {
    strategy: gate.strategy,
    action: gate.action ?? null,
    accepted: gate.accepted,
    reason: gate.reason,
    candidateScore: gate.candidateScore,
    incumbentScore: gate.incumbentScore,
    itemsEvaluated: gate.itemsEvaluated ?? null,
    itemsTotal: gate.itemsTotal ?? null,
    ...(gate.itemsEvaluated !== undefined && gate.itemsTotal !== undefined && gate.itemsEvaluated < gate.itemsTotal ? { partial: true as const } : {}),
    improved: flips('improved'),
    regressed: flips('regressed'),
    unpairedItems: gate.unpairedItems?.length ?? 0,
    vetoes: (gate.vetoes ?? []).map((veto) => (typeof veto === 'string' ? veto : JSON.stringify(veto))),
  };
}

/** A step artifact in the shape the reader knows, or null when it is missing or of another shape (lenient: this is for inspection). */
async function readStepJson<Schema extends z.ZodType>(directory: string, step: number, name: string, schema: Schema): Promise<z.infer<Schema> | null> {
  try {
    const file = path.join(directory, ...stepDirectoryPath(step).split('/'), ...checkedRelativePath(name).split('/'));
    return (await readJsonFileIfExists(file, schema)) ?? null;
  } catch {
    return null;
  }
}
