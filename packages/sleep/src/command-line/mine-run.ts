import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { type ConfigLayerInput, nearestWord, type PackageResolver, prepareChatModel } from '@skillopt/core';
import { defaultStateDirectory, projectStateDirectory } from '../checkpoints/state-directory.js';
import type { HarvestedSession } from '../harvest/session-record.js';
import { createLlmMiner, type SessionMiningFailure } from '../mine/llm-miner.js';
import { mineTasks } from '../mine/mine-tasks.js';
import { nightEnvironmentSection } from '../night/night-config.js';
import { withNightEnvironment } from '../night/night-resolver.js';
import { selectNightTasks } from '../night/night-tasks.js';
import { writeTaskFile } from '../tasks/task-file.js';
import type { ReferenceKind, TaskSplit } from '../tasks/task-record.js';
import { type HarvestRunRequest, type HarvestRunResult, harvestWarnings, startHarvestRun } from './harvest-run.js';
import { fileNameTime } from '../file-name-time.js';
import { MINER_NAMES } from './sleep-actions.js';

/** The most tasks one mined file holds, as the original's default. */
export const DEFAULT_MINED_TASKS = 40;

/** What `sleep mine` is asked, in either front end: a harvest of one project's sessions, and where the tasks go. */
export interface MineRunRequest extends Omit<HarvestRunRequest, 'projects' | 'allProjects'> {
  /** The project folder whose sessions are mined; default the working directory. One project: its tasks are its own. */
  project?: string | undefined;
  maxTasks?: number | undefined;
  valFraction?: number | undefined;
  testFraction?: number | undefined;
  seed?: number | undefined;
  /** The task file to write; default a new file under the project's folder of Sleep's state directory. */
  output?: string | undefined;
  /** The moment a default file is named after; default now. */
  now?: Date;
  /** `llm`: the config's optimizer model mines, writing references, rubrics and checks. Default `heuristic`. */
  miner?: 'heuristic' | 'llm' | undefined;
  /** For the LLM miner: the user's config layers (`--config`) and `--set` values over Sleep's defaults, and where backends are found. */
  layers?: readonly ConfigLayerInput[] | undefined;
  overrides?: readonly string[] | undefined;
  resolver?: PackageResolver | undefined;
  /** What to run again once a spent budget is raised, for the budget's message. */
  budgetResumeCommand?: string | undefined;
}

/** The miner's model calls, when a model mined: in a ledger of their own, as every paid call is. */
export interface MinerCalls {
  ledgerFile: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Calls of models without a price: while above 0, costUsd is a lower bound. */
  unpricedCalls: number;
  /** The miner is the simulated model: its tasks are a demonstration, not a reading of the sessions. */
  simulated: boolean;
  /** Sessions whose replies could not be read after one re-ask: reported, never taken as sessions without tasks. */
  failures: SessionMiningFailure[];
}

export interface MineRunResult {
  /** Null when nothing was mined: no empty file is written. */
  tasksFile: string | null;
  project: string;
  sessions: number;
  tasks: number;
  miner: 'heuristic' | 'llm';
  minerCalls?: MinerCalls;
  bySplit: Record<TaskSplit, number>;
  byReferenceKind: Partial<Record<ReferenceKind, number>>;
  /** Tasks a night cannot judge until a person gives them a reference, a rubric or checks. */
  needReference: number;
  harvest: HarvestRunResult;
}

const MINERS = MINER_NAMES;

/** The `--miner` flag of `sleep mine`, read the same way by both front ends. */
export function minerFlag(text: string | undefined): 'heuristic' | 'llm' | undefined {
  if (text === undefined || (MINERS as readonly string[]).includes(text)) return text as 'heuristic' | 'llm' | undefined;
  const nearest = nearestWord(text, MINERS);
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `--miner is heuristic or llm, got "${text}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`}`,
  });
}

/** The `--val-fraction` and `--test-fraction` flags of `sleep mine`, read the same way by both front ends. */
export function splitFractionFlags(flags: { 'val-fraction'?: string | undefined; 'test-fraction'?: string | undefined }): {
  valFraction?: number;
  testFraction?: number;
} {
  const read = (name: 'val-fraction' | 'test-fraction'): number | undefined => {
    const text = flags[name];
    if (text === undefined) return undefined;
    const value = Number(text);
    if (text.trim() === '' || !(value >= 0 && value < 1))
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `--${name} must be a number from 0 up to (not including) 1, got ${text}`,
      });
    return value;
  };
  const valFraction = read('val-fraction');
  const testFraction = read('test-fraction');
  return { ...(valFraction === undefined ? {} : { valFraction }), ...(testFraction === undefined ? {} : { testFraction }) };
}

/**
 * 1 when the LLM miner was asked and not one of its replies could be used: the file then holds
 * the heuristic miner's tasks, which is not what was asked for, so the command fails with the
 * reasons printed. A model that read the sessions and found no task is not a failure.
 */
export function mineExitCode(result: MineRunResult): 0 | 1 {
  const calls = result.minerCalls;
  return calls !== undefined && calls.failures.length > 0 && result.miner === 'heuristic' ? 1 : 0;
}

/** Where the mined tasks go: --out, else a new file under the project's folder of the state directory. */
function taskFilePath(request: MineRunRequest, project: string): string {
  const { workingDirectory } = request;
  if (request.output !== undefined) return path.resolve(workingDirectory, request.output);
  const stateDirectory = stateDirectoryOf(request);
  const name = `${fileNameTime(request.now ?? new Date())}-${randomBytes(3).toString('hex')}.tasks.json`;
  return path.join(projectStateDirectory(stateDirectory, project), 'mined', name);
}

/** The defaults the LLM miner's config starts from: the simulated model, as a night's. */
function minerConfigLayer(): ConfigLayerInput {
  // Config resolution wants an env; the night's is named, and never created for mining.
  return {
    name: 'the mining defaults of @skillopt/sleep',
    config: { env: nightEnvironmentSection('(mined tasks)', '(no document)'), model: { target_backend: 'sim', optimizer_backend: 'sim' } },
  };
}

async function minerModel(request: MineRunRequest, project: string) {
  if (request.resolver === undefined) throw new Error('sleep mine: the LLM miner needs a package resolver');
  const projectDirectory = projectStateDirectory(stateDirectoryOf(request), project);
  const ledgerFile = path.join(projectDirectory, 'mined', `${fileNameTime(request.now ?? new Date())}-${randomBytes(3).toString('hex')}.ledger.jsonl`);
  await mkdir(path.dirname(ledgerFile), { recursive: true });
  const prepared = await prepareChatModel({
    layers: [minerConfigLayer(), ...(request.layers ?? [])],
    overrides: request.overrides ?? [],
    workingDirectory: request.workingDirectory,
    resolver: withNightEnvironment(request.resolver),
    role: 'optimizer',
    ledgerFile,
    budgetResumeCommand: request.budgetResumeCommand ?? 'sleep mine',
    // The project's folder, as a night's: the same command run again (or `sleep run`) finds the answers there.
    backendFilesDirectory: projectDirectory,
  });
  return { prepared, ledgerFile };
}

function minerCallsOf(model: Awaited<ReturnType<typeof minerModel>>, failures: SessionMiningFailure[]): MinerCalls {
  const { overall } = model.prepared.ledger.totals();
  return {
    ledgerFile: model.ledgerFile,
    calls: overall.calls,
    inputTokens: overall.inputTokens,
    outputTokens: overall.outputTokens,
    costUsd: overall.costUsd,
    unpricedCalls: overall.unpricedCalls,
    simulated: model.prepared.simulated,
    failures,
  };
}

function stateDirectoryOf(request: MineRunRequest): string {
  return request.stateDirectory === undefined ? defaultStateDirectory(request.environment) : path.resolve(request.workingDirectory, request.stateDirectory);
}

/**
 * `sleep mine`: one project's sessions harvested and mined into a task file for a person to review
 * (`reviewed: false`). The heuristic miner writes no reference: the file is where the developer
 * adds the answers, rubrics or checks that let a night judge a replay, then passes it back to
 * `sleep dry-run --tasks`. By default the file is kept under Sleep's state directory, outside the
 * project, because it holds the developer's prompts. With no task mined, no file is written.
 * Nothing else is written; no checkpoint moves.
 */
export async function mineSessionsToTaskFile(request: MineRunRequest): Promise<{ result: MineRunResult; warnings: string[] }> {
  const { workingDirectory } = request;
  const project = path.resolve(workingDirectory, request.project ?? '.');
  const run = await startHarvestRun({ ...request, projects: [project] });
  const sessions: HarvestedSession[] = [];
  for await (const session of run.harvest.sessions) sessions.push(session);
  const maxTasks = request.maxTasks ?? DEFAULT_MINED_TASKS;
  request.onStage?.({
    stage: 'mine',
    message: `mining ${sessions.length} session${sessions.length === 1 ? '' : 's'} into tasks (the ${request.miner === 'llm' ? 'LLM' : 'heuristic'} miner)`,
  });
  // No session, no model: nothing is called and no ledger is opened.
  const model = request.miner === 'llm' && sessions.length > 0 ? await minerModel(request, project) : undefined;
  let mined: Awaited<ReturnType<typeof mineTasks>>;
  try {
    mined = await mineTasks(sessions, {
      maxTasks,
      candidateLimit: maxTasks * 2,
      ...(model === undefined ? {} : { llmMiner: createLlmMiner({ model: model.prepared.model, maxSessions: maxTasks, maxTasks }) }),
      ...(request.valFraction === undefined ? {} : { valFraction: request.valFraction }),
      ...(request.testFraction === undefined ? {} : { testFraction: request.testFraction }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
    });
  } finally {
    await model?.prepared.ledger.close();
  }
  const harvest = run.result();
  const tasksFile = mined.tasks.length === 0 ? null : taskFilePath(request, project);
  if (tasksFile !== null) {
    await mkdir(path.dirname(tasksFile), { recursive: true });
    const sources = harvest.sources.filter((report) => report.sessions > 0).map((report) => report.source);
    await writeTaskFile(tasksFile, {
      project,
      source: sources.join(','),
      sessionCount: sessions.length,
      targetSkillPath: '',
      reviewed: false,
      tasks: mined.tasks,
    });
  }
  const bySplit: Record<TaskSplit, number> = { train: 0, val: 0, test: 0 };
  const byReferenceKind: Partial<Record<ReferenceKind, number>> = {};
  for (const task of mined.tasks) {
    bySplit[task.split] += 1;
    byReferenceKind[task.referenceKind] = (byReferenceKind[task.referenceKind] ?? 0) + 1;
  }
  return {
    result: {
      tasksFile,
      project,
      sessions: sessions.length,
      tasks: mined.tasks.length,
      miner: mined.miner,
      ...(model === undefined ? {} : { minerCalls: minerCallsOf(model, mined.failures) }),
      bySplit,
      byReferenceKind,
      needReference: selectNightTasks(mined.tasks).unjudgeable.length,
      harvest,
    },
    warnings: harvestWarnings(harvest.sources),
  };
}
