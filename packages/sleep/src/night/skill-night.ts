import type { RunEvent } from '@skillopt/contract';
import type { ConfigLayerInput, PackageResolver } from '@skillopt/core';
import { fileSha256 } from '../adoption/file-sha256.js';
import { stageProposal } from '../staging/stage-proposal.js';
import type { TaskRecord } from '../tasks/task-record.js';
import type { NightSpend } from './night-budget.js';
import type { NightReport } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import { readPinnedDocument } from './pinned-document.js';
import { runNight } from './run-night.js';
import type { NightStageListener } from './night-stages.js';
import { recallSimilarTasks } from './task-recall.js';

/** How one skill's part of a night ended. */
export interface SkillNightResult {
  skill: string;
  /** The live document; empty when the skill could not be found. */
  documentPath: string;
  /** `skipped`: the skill's document could not be found, or the night's budget was spent before its turn. */
  outcome: 'accepted' | 'rejected' | 'refused' | 'budget-spent' | 'skipped';
  /** Why, when the outcome alone does not say: a refusal, the budget, a missing skill, a proposal not staged. */
  reason?: string;
  /** The document's SHA-256 as the night read it (null: there was no file): the pin a proposal carries. */
  baselineSha256?: string | null;
  report?: NightReport;
  staging: { directory: string } | null;
  /** Earlier nights' tasks recalled into this skill's training. */
  recalled: number;
}

export interface SkillNightInput {
  skill: string;
  tasks: readonly TaskRecord[];
  documentPath: string;
  /** This skill's folder of the night. */
  directory: string;
  night: number;
  nightId: string;
  project: string;
  stagingRoot: string;
  /** The project's archived tasks of this skill, and how many of the most similar to recall (0: none). */
  archive: readonly TaskRecord[];
  recallCount: number;
  spentBefore: NightSpend;
  layers?: readonly ConfigLayerInput[] | undefined;
  overrides?: readonly string[] | undefined;
  workingDirectory: string;
  /** Where the backends keep files the night's next run finds again: the project's folder in Sleep's state. */
  backendFilesDirectory: string;
  resolver: PackageResolver;
  editBudget?: number | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: RunEvent) => void) | undefined;
  onStage?: NightStageListener | undefined;
  resumeCommand?: string | undefined;
  now: () => Date;
}

/**
 * One skill's part of a night: its document read once and pinned by its hash, earlier nights'
 * similar tasks recalled into its training, and the night run on its own gate. Nothing is staged
 * yet (staging null): stageSkillNight does that once every skill of the night has run, so a night
 * another skill stopped stages nothing.
 */
export async function runSkillNight(input: SkillNightInput): Promise<SkillNightResult> {
  const pinned = await readPinnedDocument(input.documentPath);
  const recalled = recallSimilarTasks(input.tasks, input.archive, input.recallCount);
  const report = await runNight({
    tasks: [...input.tasks, ...recalled],
    documentPath: input.documentPath,
    document: pinned.text,
    nightDirectory: input.directory,
    ...(input.layers === undefined ? {} : { layers: input.layers }),
    ...(input.overrides === undefined ? {} : { overrides: input.overrides }),
    workingDirectory: input.workingDirectory,
    backendFilesDirectory: input.backendFilesDirectory,
    resolver: input.resolver,
    ...(input.editBudget === undefined ? {} : { editBudget: input.editBudget }),
    project: input.project,
    dryRun: false,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.onStage === undefined ? {} : { onStage: input.onStage }),
    ...(input.resumeCommand === undefined ? {} : { resumeCommand: input.resumeCommand }),
    spentBefore: input.spentBefore,
  });
  const reason = report.refusal?.reason ?? report.budget?.spent.map((limit) => `${limit.configKey}: ${limit.used} of ${limit.max} used`).join('; ');
  return {
    skill: input.skill,
    documentPath: input.documentPath,
    baselineSha256: pinned.sha256,
    recalled: recalled.length,
    outcome: report.outcome,
    ...(reason === undefined ? {} : { reason }),
    report: { ...report, night: input.night },
    staging: null,
  };
}

/**
 * When the gate accepted a skill's night and the text changes, its proposal staged with the pin
 * the night read. A document changed while the night ran is not staged: the proposal was made
 * from the text the night read.
 */
export async function stageSkillNight(input: SkillNightInput, night: SkillNightResult): Promise<SkillNightResult> {
  const report = night.report;
  if (night.outcome !== 'accepted' || report === undefined || report.wouldStage === null || night.baselineSha256 === undefined) return night;
  if ((await fileSha256(input.documentPath)) !== night.baselineSha256) {
    const stagingRefusal = `${input.documentPath} changed while the night ran; the proposal was made from the text the night began with, so nothing was staged. Run the night again.`;
    return { ...night, reason: stagingRefusal, report: { ...report, stagingRefusal } };
  }
  const staged = await stageProposal({
    stagingRoot: input.stagingRoot,
    nightId: input.nightId,
    skill: input.skill,
    night: input.night,
    project: input.project,
    nightDirectory: input.directory,
    documents: [{ livePath: input.documentPath, proposed: report.wouldStage.document, liveSha256: night.baselineSha256 }],
    report,
    reportMarkdown: renderNightReport(report),
    now: input.now(),
  });
  return { ...night, report: { ...report, staged: { directory: staged.directory } }, staging: { directory: staged.directory } };
}
