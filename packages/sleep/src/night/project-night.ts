import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, type RunEvent, SkillOptError } from '@skillopt/contract';
import { type ConfigLayerInput, type PackageResolver, writeFileAtomic, writeJsonAtomic } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import type { SourceLocations } from '../harvest/source-locations.js';
import { type MineRunResult, mineSessionsToTaskFile } from '../command-line/mine-run.js';
import type { NightOutcome, NightRecord } from '../project-state/night-history.js';
import { type LockedProjectState, lockProjectState, type ProjectStateLayout } from '../project-state/project-state.js';
import { stageProposal } from '../staging/stage-proposal.js';
import { personaFixture } from '../persona-fixtures.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { type AdoptionResult, adoptProposal } from '../adoption/adopt-proposal.js';
import { fileSha256 } from '../adoption/file-sha256.js';
import { defaultSkillDocument, readPinnedDocument } from './pinned-document.js';
import { NIGHT_REPORT_FORMAT, type NightReport, type SpentLimit } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import { type NightSpend, spentLimitsOf } from './night-budget.js';
import { runNight } from './run-night.js';

/** What `sleep run` is asked, in either front end. */
export interface ProjectNightRequest {
  /** The project the night is for; default the working directory. Its sessions, its tasks, its state. */
  project?: string | undefined;
  workingDirectory: string;
  /** Sleep's state folder; default `$SKILLOPT_SLEEP_HOME`, else ~/.skillopt-sleep. */
  stateDirectory?: string | undefined;
  /** The skill document whose learned block the night trains; default the project's `.claude/skills/skillopt-sleep-learned/SKILL.md`. */
  skill?: string | undefined;
  /** Reviewed tasks to replay instead of tonight's sessions; nothing is harvested and no checkpoint moves. */
  tasksFile?: string | undefined;
  /** A shipped example developer's tasks (`researcher`, `programmer`), replayed as this project's: a night to try the commands on. */
  persona?: string | undefined;
  /** The harvest and the miner, when there is no task file (as `sleep mine`; the miner defaults to `llm`). */
  sources?: readonly string[] | undefined;
  since?: string | undefined;
  lookback?: string | undefined;
  maxSessions?: number | undefined;
  maxTasks?: number | undefined;
  valFraction?: number | undefined;
  testFraction?: number | undefined;
  miner?: 'heuristic' | 'llm' | undefined;
  locations?: Partial<SourceLocations> | undefined;
  /** Backends, gate and budget settings over the night's defaults. */
  layers?: readonly ConfigLayerInput[] | undefined;
  overrides?: readonly string[] | undefined;
  resolver: PackageResolver;
  editBudget?: number | undefined;
  /** Stage in `<project>/.skillopt-sleep/staging` (with a .gitignore) instead of the state directory. */
  stagingInProject?: boolean | undefined;
  /** Adopt what the night stages at once (the original's `--auto-adopt`), for a scheduled night you trust. */
  autoAdopt?: boolean | undefined;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** The command that starts the next night, named when this one is stopped. */
  resumeCommand?: string;
  now?: () => Date;
}

export interface ProjectNightResult {
  night: number;
  nightId: string;
  project: string;
  outcome: Exclude<NightOutcome, 'failed'>;
  /** The night's folder under the project's state: its tasks, core's run, report.json and report.md. */
  nightDirectory: string;
  /** Absent when there were no tasks to replay. */
  report?: NightReport;
  markdown: string;
  /** The staged proposal; null when nothing was staged. */
  staging: { directory: string; documents: string[] } | null;
  /** Set when an accepted proposal could not be staged (the document changed during the night). */
  stagingRefusal?: string;
  /** The harvest and mining, when the night read the project's sessions itself. */
  mined?: MineRunResult;
  /** With autoAdopt: the adoption of what was staged. */
  adoption?: AdoptionResult;
  checkpointAdvanced: boolean;
  warnings: string[];
}

function stamp(moment: Date): string {
  return moment.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}

function refusal(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** A task file's tasks, refused when any of them belongs to another project: one project's tasks never train another's skill. */
async function tasksOfFile(tasksFile: string, project: string): Promise<{ tasks: TaskRecord[]; warnings: string[] }> {
  const { file, warnings } = await readTaskFile(tasksFile);
  if (file.project !== '' && path.resolve(file.project) !== project)
    throw refusal(
      `${tasksFile} holds tasks of ${file.project}, and this night is for ${project}: pass --project ${file.project}, or mine this project's own tasks.`,
    );
  const foreign = file.tasks.filter((task) => task.project !== '' && path.resolve(task.project) !== project);
  if (foreign.length > 0)
    throw refusal(
      `${tasksFile} has ${foreign.length} task(s) of other projects (${foreign
        .slice(0, 3)
        .map((task) => `${task.id}: ${task.project}`)
        .join(', ')}); a night learns only from its own project's tasks. Remove them or run the night for their project.`,
    );
  return { tasks: file.tasks, warnings };
}

/** `<project>/.skillopt-sleep/.gitignore`, so a staging folder kept in the project is never committed by accident. */
async function ignoreInProject(stagingRoot: string): Promise<void> {
  const folder = path.dirname(stagingRoot);
  await mkdir(folder, { recursive: true });
  const ignoreFile = path.join(folder, '.gitignore');
  const existing = await readFile(ignoreFile, 'utf8').catch(() => undefined);
  if (existing === undefined) await writeFile(ignoreFile, '# Written by SkillOpt Sleep: staged proposals hold your prompts and replies.\n*\n');
}

function recordOf(
  base: Omit<NightRecord, 'endedAt' | 'outcome' | 'tasks' | 'staging' | 'checkpointAdvanced'>,
  result: ProjectNightResult,
  now: Date,
): NightRecord {
  const report = result.report;
  const reason =
    result.stagingRefusal ?? report?.refusal?.reason ?? report?.budget?.spent.map((limit) => `${limit.configKey}: ${limit.used} of ${limit.max}`).join('; ');
  return {
    ...base,
    endedAt: now.toISOString(),
    outcome: result.outcome,
    tasks: report?.tasks.total ?? 0,
    ...(report?.validation === undefined ? {} : { validation: { before: report.validation.before.score, after: report.validation.after.score } }),
    staging: result.staging?.directory ?? null,
    checkpointAdvanced: result.checkpointAdvanced,
    ...(reason === undefined || reason === '' ? {} : { reason }),
    ...(report?.usage === undefined ? {} : { calls: report.usage.calls, costUsd: report.usage.costUsd }),
  };
}

/**
 * `sleep run`: one night for one project, from its sessions to a staged proposal. Under the
 * project's state lock, it harvests the sessions since the project's last completed night (or
 * replays a reviewed task file), mines them into tasks, runs the night (core's one-step training
 * run, gate included) on the skill document as read and pinned at the start, and, when the gate
 * accepts, stages the new document with the hash of the file it replaces. The live document is
 * never written: `sleep adopt` does that. Only a night that reached the gate's decision on its own
 * harvest moves the checkpoints; a refused night, a spent budget or a failure leaves them, so the
 * next night reads the same sessions again.
 */
export async function runProjectNight(request: ProjectNightRequest): Promise<ProjectNightResult> {
  const now = request.now ?? (() => new Date());
  const { workingDirectory } = request;
  const project = path.resolve(workingDirectory, request.project ?? '.');
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory() : path.resolve(workingDirectory, request.stateDirectory);
  const state = await lockProjectState({ stateDirectory, project, purpose: 'sleep night' });
  let result: ProjectNightResult;
  try {
    result = await nightUnderLock(request, state, now);
  } finally {
    await state.release();
  }
  if (!request.autoAdopt || result.staging === null) return result;
  const adoption = await adoptProposal({ stagingDirectory: result.staging.directory, journalDirectory: state.layout.adoptionDirectory });
  return { ...result, adoption };
}

type GatheredTasks = { tasks: TaskRecord[]; mined?: MineRunResult; warnings: string[] } | { budgetSpent: SpentLimit[] };

/** Tonight's tasks: the reviewed task file's, else the project's new sessions mined (a budget may stop the miner). */
async function gatherTasks(request: ProjectNightRequest, layout: ProjectStateLayout, nightDirectory: string, startedAt: Date): Promise<GatheredTasks> {
  const { workingDirectory } = request;
  if (request.persona !== undefined) {
    if (request.tasksFile !== undefined) throw refusal('--persona brings its own tasks: give it without --tasks');
    const { file, warnings } = await readTaskFile(personaFixture(request.persona).tasksFile);
    return { tasks: file.tasks.map((task) => ({ ...task, project: layout.project })), warnings };
  }
  if (request.tasksFile !== undefined) return tasksOfFile(path.resolve(workingDirectory, request.tasksFile), layout.project);
  const mining = await mineSessionsToTaskFile({
    ...(request.sources === undefined ? {} : { sources: request.sources }),
    project: layout.project,
    since: request.since,
    lookback: request.lookback,
    maxSessions: request.maxSessions,
    maxTasks: request.maxTasks,
    valFraction: request.valFraction,
    testFraction: request.testFraction,
    stateDirectory: layout.stateDirectory,
    ...(request.locations === undefined ? {} : { locations: request.locations }),
    workingDirectory,
    output: path.join(nightDirectory, 'mined.tasks.json'),
    miner: request.miner ?? 'llm',
    layers: request.layers,
    overrides: request.overrides,
    resolver: request.resolver,
    budgetResumeCommand: request.resumeCommand ?? 'sleep run',
    now: startedAt,
  }).catch((error: unknown) => {
    if (SkillOptError.isInstance(error) && error.code === ERROR_CODES.budgetSpent) return { budgetSpent: spentLimitsOf(error) };
    throw error;
  });
  if ('budgetSpent' in mining) return mining;
  const { result } = mining;
  const tasks = result.tasksFile === null ? [] : (await readTaskFile(result.tasksFile)).file.tasks;
  return { tasks, mined: result, warnings: mining.warnings };
}

/** The report of a night a budget stopped while it mined: nothing was replayed. */
function miningStopReport(documentPath: string, night: number, spent: SpentLimit[]): NightReport {
  return {
    format: NIGHT_REPORT_FORMAT,
    dryRun: false,
    night,
    documentPath,
    tasks: { total: 0, replayed: 0, bySplit: { train: 0, val: 0, test: 0 }, byReferenceKind: {}, unjudgeable: [], excluded: [] },
    outcome: 'budget-spent',
    budget: { spent },
    gateDecisions: [],
    rules: { before: [], after: [], added: [], removed: [] },
    wouldStage: null,
  };
}

async function nightUnderLock(request: ProjectNightRequest, state: LockedProjectState, now: () => Date): Promise<ProjectNightResult> {
  const { layout } = state;
  const { workingDirectory } = request;
  const project = layout.project;
  const night = Math.max(0, ...(await state.nights()).map((record) => record.night)) + 1;
  const startedAt = now();
  const nightId = `${stamp(startedAt)}-night-${night}`;
  const nightDirectory = path.join(layout.nightsDirectory, nightId);
  await mkdir(nightDirectory, { recursive: true });
  const documentPath = path.resolve(workingDirectory, request.skill ?? defaultSkillDocument(project));
  const base = { night, nightId, project, startedAt: startedAt.toISOString(), documentPath, harvest: null as NightRecord['harvest'] };
  const finish = async (result: ProjectNightResult): Promise<ProjectNightResult> => {
    if (result.report !== undefined) await writeJsonAtomic(path.join(nightDirectory, 'report.json'), result.report);
    await writeFileAtomic(path.join(nightDirectory, 'report.md'), result.markdown);
    await state.recordNight(recordOf(base, result, now()));
    return result;
  };
  try {
    const pinned = await readPinnedDocument(documentPath);
    const gathered = await gatherTasks(request, layout, nightDirectory, startedAt);
    const common = { night, nightId, project, nightDirectory, staging: null, checkpointAdvanced: false };
    if ('budgetSpent' in gathered) {
      const report = miningStopReport(documentPath, night, gathered.budgetSpent);
      return finish({ ...common, outcome: 'budget-spent', report, markdown: renderNightReport(report), warnings: [] });
    }
    const { tasks, mined, warnings } = gathered;
    if (mined !== undefined) base.harvest = { sources: mined.harvest.sources.map((report) => report.source), sessions: mined.sessions };
    // A night that reached a decision on its own harvest has read those sessions: the next starts after them.
    const advance = async (): Promise<boolean> => {
      if (base.harvest === null) return false;
      await state.advanceCheckpoints(base.harvest.sources, startedAt.getTime());
      return true;
    };
    const found = { ...common, ...(mined === undefined ? {} : { mined }), warnings };
    if (tasks.length === 0)
      return finish({
        ...found,
        outcome: 'no-tasks',
        markdown: `# SkillOpt Sleep night ${night}: nothing to learn from\n\nNo task was mined from this project's sessions${mined === undefined ? '' : ` (${mined.sessions} sessions, ${mined.harvest.window})`}.\n`,
        checkpointAdvanced: await advance(),
      });

    const miningCalls = mined?.minerCalls;
    const spentBefore: NightSpend | undefined =
      miningCalls === undefined
        ? undefined
        : {
            calls: miningCalls.calls,
            inputTokens: miningCalls.inputTokens,
            outputTokens: miningCalls.outputTokens,
            costUsd: miningCalls.costUsd,
            wallSeconds: Math.max(0, (now().getTime() - startedAt.getTime()) / 1000),
          };
    const report = await runNight({
      tasks,
      documentPath,
      document: pinned.text,
      nightDirectory,
      ...(request.layers === undefined ? {} : { layers: request.layers }),
      ...(request.overrides === undefined ? {} : { overrides: request.overrides }),
      workingDirectory,
      resolver: request.resolver,
      ...(request.editBudget === undefined ? {} : { editBudget: request.editBudget }),
      project,
      dryRun: false,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onEvent === undefined ? {} : { onEvent: request.onEvent }),
      ...(request.resumeCommand === undefined ? {} : { resumeCommand: request.resumeCommand }),
      ...(spentBefore === undefined ? {} : { spentBefore }),
    });
    let staging: ProjectNightResult['staging'] = null;
    let stagingRefusal: string | undefined;
    if (report.outcome === 'accepted' && report.wouldStage !== null) {
      if ((await fileSha256(documentPath)) !== pinned.sha256)
        stagingRefusal = `${documentPath} changed while the night ran; the proposal was made from the text the night began with, so nothing was staged. Run the night again.`;
      else {
        const stagingRoot = request.stagingInProject ? layout.projectStagingRoot : layout.stagingRoot;
        if (request.stagingInProject) await ignoreInProject(stagingRoot);
        const staged = await stageProposal({
          stagingRoot,
          nightId,
          night,
          project,
          nightDirectory,
          documents: [{ livePath: documentPath, proposed: report.wouldStage.document, liveSha256: pinned.sha256 }],
          report: { ...report, night },
          reportMarkdown: renderNightReport({ ...report, night }),
          now: now(),
        });
        staging = { directory: staged.directory, documents: staged.manifest.documents.map((document) => document.livePath) };
      }
    }
    const decided = (report.outcome === 'accepted' || report.outcome === 'rejected') && stagingRefusal === undefined;
    const finalReport: NightReport = {
      ...report,
      night,
      ...(staging === null ? {} : { staged: { directory: staging.directory } }),
      ...(stagingRefusal === undefined ? {} : { stagingRefusal }),
    };
    return finish({
      ...found,
      outcome: report.outcome,
      report: finalReport,
      markdown: renderNightReport(finalReport),
      staging,
      ...(stagingRefusal === undefined ? {} : { stagingRefusal }),
      checkpointAdvanced: decided ? await advance() : false,
    });
  } catch (error) {
    await state.recordNight({
      ...base,
      endedAt: now().toISOString(),
      outcome: 'failed',
      tasks: 0,
      staging: null,
      checkpointAdvanced: false,
      reason: error instanceof Error ? error.message.slice(0, 500) : String(error),
    });
    throw error;
  }
}
