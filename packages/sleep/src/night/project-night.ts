import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AnswerPendingError, ERROR_CODES, type RunEvent, SkillOptError } from '@skillopt/contract';
import { combinedAnswerPending, type ConfigLayerInput, type PackageResolver, writeFileAtomic, writeJsonAtomic } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import type { SourceLocations } from '../harvest/source-locations.js';
import { type MinerCalls, type MineRunResult, mineSessionsToTaskFile } from '../command-line/mine-run.js';
import { defaultSourceLocations } from '../harvest/source-locations.js';
import { archiveTasks, readTaskArchive } from '../project-state/task-archive.js';
import { resolveSkill, skillRoots } from '../skills/skill-resolver.js';
import type { NightOutcome, NightRecord } from '../project-state/night-history.js';
import { type LockedProjectState, lockProjectState, type ProjectStateLayout } from '../project-state/project-state.js';
import { personaFixture } from '../persona-fixtures.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { type AdoptionResult, adoptProposal } from '../adoption/adopt-proposal.js';
import { spentLimitsOf } from './night-budget.js';
import { combinedUsage, NIGHT_REPORT_FORMAT, type NightReport, type NightUsage, type SpentLimit } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import { defaultSkillDocument } from './pinned-document.js';
import { renderProjectNight } from './project-night-markdown.js';
import { groupTasksBySkill, skillNameOf } from './skill-groups.js';
import { runSkillNight, type SkillNightInput, type SkillNightResult, stageSkillNight } from './skill-night.js';
import { fileNameTime } from '../file-name-time.js';
import { forSkill, type NightStageListener } from './night-stages.js';

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
  /** More folders to find skills in (`<root>/<name>/SKILL.md`), beside the project's and Claude Code's; relative ones below the project. */
  skillRoots?: readonly string[] | undefined;
  /** How many of the project's earlier tasks most like tonight's to recall into each skill's training (default 0: none). */
  recall?: number | undefined;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Told each stage the night moves on to: harvest, mine, then each skill's replay and consolidate, then stage. */
  onStage?: NightStageListener | undefined;
  /** Where the default state folder, the sources and Claude Code's skills are found (HOME, SKILLOPT_SLEEP_HOME, …); default this process's environment. */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
  /** The command that starts the next night, named when this one is stopped. */
  resumeCommand?: string;
  now?: () => Date;
}

export interface ProjectNightResult {
  night: number;
  nightId: string;
  project: string;
  /** The night as a whole: accepted when any skill's gate accepted, else the first stop, refusal or rejection. */
  outcome: Exclude<NightOutcome, 'failed'>;
  /** The night's folder under the project's state: its tasks, each skill's run and report, report.md. */
  nightDirectory: string;
  /**
   * Each skill the night learned for: the night's own document (`--skill`) with the tasks of no
   * particular skill, then each skill the sessions used, with its own tasks, gate and proposal.
   */
  skills: SkillNightResult[];
  markdown: string;
  /** The harvest and mining, when the night read the project's sessions itself. */
  mined?: MineRunResult;
  /** Every call of the night: mining and each skill's run. */
  usage: NightUsage;
  /** With autoAdopt: the adoption of each proposal staged. */
  adoptions?: AdoptionResult[];
  checkpointAdvanced: boolean;
  warnings: string[];
}

/** The exit code of `sleep run`: 1 when nothing could be validated, a budget stopped the night, or a document changed under it. */
export function projectNightExitCode(result: Pick<ProjectNightResult, 'outcome' | 'skills'>): 0 | 1 {
  if (result.outcome === 'refused' || result.outcome === 'budget-spent') return 1;
  return result.skills.some((skill) => skill.report?.stagingRefusal !== undefined) ? 1 : 0;
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
  base: Omit<NightRecord, 'endedAt' | 'outcome' | 'tasks' | 'skills' | 'checkpointAdvanced'>,
  result: ProjectNightResult,
  tasks: number,
  now: Date,
): NightRecord {
  return {
    ...base,
    endedAt: now.toISOString(),
    outcome: result.outcome,
    tasks,
    skills: result.skills.map((skill) => ({
      skill: skill.skill,
      documentPath: skill.documentPath,
      outcome: skill.outcome,
      ...(skill.report?.validation === undefined
        ? {}
        : { validation: { before: skill.report.validation.before.score, after: skill.report.validation.after.score } }),
      staging: skill.staging?.directory ?? null,
      ...(skill.reason === undefined ? {} : { reason: skill.reason }),
    })),
    checkpointAdvanced: result.checkpointAdvanced,
    calls: result.usage.calls,
    costUsd: result.usage.costUsd,
  };
}

/** The night's outcome from its skills': an acceptance is what the user looks for, then what stopped or refused it. */
function overallOutcome(skills: readonly SkillNightResult[]): ProjectNightResult['outcome'] {
  const outcomes = skills.map((skill) => skill.outcome);
  for (const outcome of ['accepted', 'budget-spent', 'rejected', 'refused'] as const) if (outcomes.includes(outcome)) return outcome;
  return 'refused';
}

/**
 * `sleep run`: one night for one project, from its sessions to a staged proposal. Under the
 * project's state lock, it harvests the sessions since the project's last completed night (or
 * replays a reviewed task file), mines them into tasks, runs the night (core's one-step training
 * run, gate included) on the skill document as read and pinned at the start, and, when the gate
 * accepts, stages the new document with the hash of the file it replaces. The live document is
 * never written: `sleep adopt` does that. Only a night that reached the gate's decision on its own
 * harvest moves the checkpoints; a refused night, a spent budget, a stop for answers (the handoff
 * backend) or a failure leaves them, so the next night reads the same sessions again.
 */
export async function runProjectNight(request: ProjectNightRequest): Promise<ProjectNightResult> {
  const now = request.now ?? (() => new Date());
  const { workingDirectory } = request;
  const project = path.resolve(workingDirectory, request.project ?? '.');
  const stateDirectory =
    request.stateDirectory === undefined ? defaultStateDirectory(request.environment) : path.resolve(workingDirectory, request.stateDirectory);
  const state = await lockProjectState({ stateDirectory, project, purpose: 'sleep night' });
  let result: ProjectNightResult;
  try {
    result = await nightUnderLock(request, state, now);
  } finally {
    await state.release();
  }
  if (!request.autoAdopt) return result;
  const adoptions: AdoptionResult[] = [];
  for (const skill of result.skills)
    if (skill.staging !== null)
      adoptions.push(await adoptProposal({ stagingDirectory: skill.staging.directory, journalDirectory: state.layout.adoptionDirectory }));
  return { ...result, adoptions };
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
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.onStage === undefined ? {} : { onStage: request.onStage }),
    ...(request.environment === undefined ? {} : { environment: request.environment }),
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
  const nightId = `${fileNameTime(startedAt)}-night-${night}`;
  const nightDirectory = path.join(layout.nightsDirectory, nightId);
  await mkdir(nightDirectory, { recursive: true });
  const mainDocument = path.resolve(workingDirectory, request.skill ?? defaultSkillDocument(project));
  const base = { night, nightId, project, startedAt: startedAt.toISOString(), harvest: null as NightRecord['harvest'] };
  let taskCount = 0;
  const finish = async (result: ProjectNightResult): Promise<ProjectNightResult> => {
    const { markdown, ...facts } = result;
    await writeJsonAtomic(path.join(nightDirectory, 'report.json'), facts);
    await writeFileAtomic(path.join(nightDirectory, 'report.md'), markdown);
    await state.recordNight(recordOf(base, result, taskCount, now()));
    return result;
  };
  try {
    const gathered = await gatherTasks(request, layout, nightDirectory, startedAt);
    const common = { night, nightId, project, nightDirectory, checkpointAdvanced: false };
    const mainSkill = skillNameOf(mainDocument);
    if ('budgetSpent' in gathered) {
      const report = miningStopReport(mainDocument, night, gathered.budgetSpent);
      const skills: SkillNightResult[] = [
        {
          skill: mainSkill,
          documentPath: mainDocument,
          outcome: 'budget-spent',
          reason: 'the budget was spent while mining',
          report,
          staging: null,
          recalled: 0,
        },
      ];
      return finish({ ...common, outcome: 'budget-spent', skills, usage: combinedUsage([]), markdown: renderNightReport(report), warnings: [] });
    }
    const { tasks, mined, warnings } = gathered;
    taskCount = tasks.length;
    if (mined !== undefined) base.harvest = { sources: mined.harvest.sources.map((report) => report.source), sessions: mined.sessions };
    // A night that reached a decision on its own harvest has read those sessions: the next starts after them.
    const advance = async (): Promise<boolean> => {
      if (base.harvest === null) return false;
      await state.advanceCheckpoints(base.harvest.sources, startedAt.getTime());
      return true;
    };
    const miningUsage = mined?.minerCalls === undefined ? undefined : miningUsageOf(mined.minerCalls);
    const found = { ...common, ...(mined === undefined ? {} : { mined }), warnings };
    if (tasks.length === 0)
      return finish({
        ...found,
        outcome: 'no-tasks',
        skills: [],
        usage: combinedUsage([miningUsage]),
        markdown: `# SkillOpt Sleep night ${night}: nothing to learn from\n\nNo task was mined from this project's sessions${mined === undefined ? '' : ` (${mined.sessions} sessions, ${mined.harvest.window})`}.\n`,
        checkpointAdvanced: await advance(),
      });

    const skills = await runSkillNights(request, state, { tasks, mainDocument, mainSkill, night, nightId, nightDirectory, startedAt, miningUsage, now });
    await archiveTasks(layout.directory, tasks);
    const usage = combinedUsage([miningUsage, ...skills.map((skill) => skill.report?.usage)]);
    const outcome = overallOutcome(skills);
    // Stopped by a budget or by a document that changed under it, the night is not over: its sessions are read again next time.
    const decided =
      skills.some((skill) => skill.outcome === 'accepted' || skill.outcome === 'rejected') &&
      !skills.some((skill) => skill.outcome === 'budget-spent' || skill.report?.stagingRefusal !== undefined);
    const partial = { ...found, outcome, skills, usage };
    return finish({
      ...partial,
      markdown: renderProjectNight({ ...partial, checkpointAdvanced: decided }),
      checkpointAdvanced: decided ? await advance() : false,
    });
  } catch (error) {
    await state.recordNight({
      ...base,
      endedAt: now().toISOString(),
      outcome: 'failed',
      tasks: taskCount,
      skills: [],
      checkpointAdvanced: false,
      reason: error instanceof Error ? error.message.slice(0, 500) : String(error),
    });
    throw error;
  }
}

function miningUsageOf(calls: MinerCalls): NightUsage {
  return {
    calls: calls.calls,
    inputTokens: calls.inputTokens,
    outputTokens: calls.outputTokens,
    costUsd: calls.costUsd,
    unpricedCalls: calls.unpricedCalls,
    byPurpose: { mine: calls.calls },
  };
}

interface SkillNightsPlan {
  tasks: readonly TaskRecord[];
  mainDocument: string;
  mainSkill: string;
  night: number;
  nightId: string;
  nightDirectory: string;
  startedAt: Date;
  miningUsage: NightUsage | undefined;
  now: () => Date;
}

/**
 * Each skill's part of the night in turn, one budget over them all: what mining and the skills
 * before spent is taken off what the next may spend, and once a budget stops one the rest are
 * skipped. A skill the sessions used whose document cannot be found is skipped with its reason.
 * Proposals are staged once every skill has run. A skill whose requests wait for answers (the
 * handoff backend) does not stop the others, so every request of the night waits at once; the
 * night then stops for them with nothing staged, and the same command run again starts it over.
 */
async function runSkillNights(request: ProjectNightRequest, state: LockedProjectState, plan: SkillNightsPlan): Promise<SkillNightResult[]> {
  const { layout } = state;
  const roots = await skillRoots({
    project: layout.project,
    claudeHome: request.locations?.claudeHome ?? defaultSourceLocations(request.environment).claudeHome,
    extraRoots: request.skillRoots,
  });
  const archive = request.recall !== undefined && request.recall > 0 ? await readTaskArchive(layout.directory) : [];
  const stagingRoot = request.stagingInProject ? layout.projectStagingRoot : layout.stagingRoot;
  if (request.stagingInProject) await ignoreInProject(stagingRoot);
  const results: SkillNightResult[] = [];
  const inputOf = new Map<SkillNightResult, SkillNightInput>();
  const waiting: AnswerPendingError[] = [];
  const groups = groupTasksBySkill(plan.tasks, plan.mainSkill);
  for (const [index, group] of groups.entries()) {
    const skipped = (documentPath: string, reason: string): SkillNightResult => ({
      skill: group.skill,
      documentPath,
      outcome: 'skipped',
      reason,
      staging: null,
      recalled: 0,
    });
    if (results.some((result) => result.outcome === 'budget-spent')) {
      results.push(skipped('', "the night's budget was spent before this skill's turn"));
      continue;
    }
    let documentPath = plan.mainDocument;
    if (group.skill !== plan.mainSkill) {
      const resolution = await resolveSkill(group.skill, roots);
      if (resolution.status !== 'found') {
        results.push(skipped('', `skill ${group.skill} not found: ${resolution.reason}`));
        continue;
      }
      documentPath = resolution.path;
    }
    const spent = combinedUsage([plan.miningUsage, ...results.map((result) => result.report?.usage)]);
    const input: SkillNightInput = {
      skill: group.skill,
      tasks: group.tasks,
      documentPath,
      directory: group.skill === plan.mainSkill ? plan.nightDirectory : path.join(plan.nightDirectory, 'skills', group.skill),
      night: plan.night,
      nightId: plan.nightId,
      project: layout.project,
      stagingRoot,
      archive: archive.filter((task) => (task.skillHint.trim() === '' ? plan.mainSkill : task.skillHint.trim()) === group.skill),
      recallCount: request.recall ?? 0,
      spentBefore: { ...spent, wallSeconds: Math.max(0, (plan.now().getTime() - plan.startedAt.getTime()) / 1000) },
      layers: request.layers,
      overrides: request.overrides,
      workingDirectory: request.workingDirectory,
      // The project's folder outlives the night's: the same command run again finds the answers there.
      backendFilesDirectory: layout.directory,
      resolver: request.resolver,
      editBudget: request.editBudget,
      signal: request.signal,
      onEvent: request.onEvent,
      onStage: forSkill(request.onStage, { name: group.skill, index, count: groups.length }),
      resumeCommand: request.resumeCommand,
      now: plan.now,
    };
    try {
      const result = await runSkillNight(input);
      inputOf.set(result, input);
      results.push(result);
    } catch (error) {
      if (!AnswerPendingError.isInstance(error)) throw error;
      waiting.push(error);
    }
  }
  if (waiting.length > 0) throw combinedAnswerPending(waiting);
  const accepted = results.filter((result) => result.outcome === 'accepted').map((result) => result.skill);
  if (accepted.length > 0)
    request.onStage?.({ stage: 'stage', message: `staging the proposal${accepted.length === 1 ? '' : 's'} of ${accepted.join(', ')} for review` });
  const staged: SkillNightResult[] = [];
  for (const result of results) {
    const input = inputOf.get(result);
    staged.push(input === undefined ? result : await stageSkillNight(input, result));
  }
  return staged;
}
