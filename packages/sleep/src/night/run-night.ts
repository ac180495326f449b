import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, type RunEvent, SkillOptError } from '@skillopt/contract';
import {
  type ConfigLayerInput,
  type PackageResolver,
  prepareRun,
  readRunHistory,
  readRunLedger,
  summariseEntries,
  train,
  writeFileAtomic,
} from '@skillopt/core';
import { readLearnedRules, writeLearnedRules } from '../learned-block/learned-rules.js';
import { writeTaskFile } from '../tasks/task-file.js';
import type { ReferenceKind, TaskRecord, TaskSplit } from '../tasks/task-record.js';
import { rulesOfSkillText } from './learned-skill.js';
import { budgetLeft, limitsAsSet, type NightSpend, spentLimitsOf } from './night-budget.js';
import { nightConfigLayer, nightEnvironmentSection } from './night-config.js';
import { NIGHT_REPORT_FORMAT, type NightReport, nightUsage } from './night-report.js';
import { withNightEnvironment } from './night-resolver.js';
import { type NightStageListener, withNightStages } from './night-stages.js';
import { selectNightTasks } from './night-tasks.js';

/** The night's folder: the skill document as the night began, and core's run. */
export const NIGHT_FILES = { documentBefore: 'document-before.md', run: 'run' } as const;

/** The edit budget of a night: the most rules one night may add, change or remove. */
export const DEFAULT_EDIT_BUDGET = 4;

export interface RunNightOptions {
  /** The night's tasks, each with its split (assignSplits). */
  tasks: readonly TaskRecord[];
  /** The skill document whose learned block the night trains. */
  documentPath: string;
  /** Its text as the caller read (and pinned) it; default: read from documentPath. */
  document?: string;
  /** Where the night keeps its files: the tasks it replayed, the document as it began, core's run. */
  nightDirectory: string;
  /**
   * Where the night's backends keep files that the same command run again must find (the handoff
   * backend's requests and answers, in `handoff/`): a folder in Sleep's state that outlives the
   * night's own, since a night is run again rather than resumed. Absent: the backends are told none.
   */
  backendFilesDirectory?: string;
  /** The user's config layers (backends, gate settings), above the night's defaults. */
  layers?: readonly ConfigLayerInput[];
  /** `--set` values, last. */
  overrides?: readonly string[];
  workingDirectory: string;
  /** Finds the backend packages; the night adds its own env. */
  resolver: PackageResolver;
  editBudget?: number;
  seed?: number;
  /** Where the tasks came from, for the task file the night writes. */
  project?: string;
  dryRun: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Told each stage the run moves on to (replay, consolidate), from its events. */
  onStage?: NightStageListener | undefined;
  /** The command that resumes the night's run, named when it stops. */
  resumeCommand?: string;
  /** What the night spent before its run (mining its tasks, other skills' runs): it counts against the night's budgets. */
  spentBefore?: NightSpend;
}

function countBy<Key extends string>(tasks: readonly TaskRecord[], keyOf: (task: TaskRecord) => Key): Partial<Record<Key, number>> {
  const counts: Partial<Record<Key, number>> = {};
  for (const task of tasks) counts[keyOf(task)] = (counts[keyOf(task)] ?? 0) + 1;
  return counts;
}

/**
 * One night, mine to report: the tasks replayed with the document's learned rules and judged, the
 * optimizer's proposal on the rules, and core's gate on the validation tasks deciding. It runs as
 * a one-step training run of core (prepareRun, train), so retries and exclusions, the ledger, the
 * rollout cache, the events and resuming a killed night are core's. Staging is the caller's: the
 * report says what would be staged.
 */
export async function runNight(options: RunNightOptions): Promise<NightReport> {
  const document = options.document ?? (await readFile(options.documentPath, 'utf8'));
  const rulesBefore = readLearnedRules(document);
  const selection = selectNightTasks(options.tasks);
  const bySplit = { train: 0, val: 0, test: 0, ...countBy(selection.tasks, (task) => task.split) } as Record<TaskSplit, number>;
  const base: Pick<NightReport, 'format' | 'dryRun' | 'documentPath' | 'gateDecisions'> = {
    format: NIGHT_REPORT_FORMAT,
    dryRun: options.dryRun,
    documentPath: options.documentPath,
    gateDecisions: [],
  };
  const taskCounts = {
    total: options.tasks.length,
    replayed: selection.refusal === undefined ? selection.tasks.length : 0,
    bySplit,
    byReferenceKind: countBy<ReferenceKind>(options.tasks, (task) => task.referenceKind),
    unjudgeable: selection.unjudgeable,
    excluded: [],
  };
  if (selection.refusal !== undefined)
    return {
      ...base,
      tasks: taskCounts,
      outcome: 'refused',
      refusal: selection.refusal,
      rules: { before: rulesBefore, after: rulesBefore, added: [], removed: [] },
      wouldStage: null,
    };

  await mkdir(options.nightDirectory, { recursive: true });
  const tasksFile = path.join(options.nightDirectory, 'tasks.json');
  const documentFile = path.join(options.nightDirectory, NIGHT_FILES.documentBefore);
  await writeTaskFile(tasksFile, {
    project: options.project ?? '',
    source: 'night',
    sessionCount: 0,
    targetSkillPath: options.documentPath,
    reviewed: false,
    tasks: selection.tasks,
  });
  await writeFileAtomic(documentFile, document);
  const layer = nightConfigLayer({
    tasksFile,
    documentFile,
    trainTasks: bySplit.train,
    testTasks: bySplit.test,
    editBudget: options.editBudget ?? DEFAULT_EDIT_BUDGET,
    seed: options.seed ?? 42,
  });
  const run = await prepareRun({
    // The night's own env section comes last: a user's config sets backends and the gate, never which tasks are replayed.
    layers: [layer, ...(options.layers ?? []), { name: 'the night of @skillopt/sleep', config: { env: nightEnvironmentSection(tasksFile, documentFile) } }],
    overrides: options.overrides ?? [],
    workingDirectory: options.workingDirectory,
    resolver: withNightEnvironment(options.resolver),
    needsOptimizer: true,
    ...(options.backendFilesDirectory === undefined ? {} : { backendFilesDirectory: options.backendFilesDirectory }),
  });
  // One budget covers the whole night: what was spent before this run is taken off what it may spend.
  const budgetAsSet = run.config.budget;
  if (options.spentBefore !== undefined) run.config.budget = budgetLeft(budgetAsSet, options.spentBefore);
  const runDirectory = path.join(options.nightDirectory, NIGHT_FILES.run);
  const onEvent = withNightStages(options.onEvent, options.onStage);
  const summary = await train({
    config: run.config,
    environment: run.environment,
    target: run.target,
    optimizer: run.optimizer!,
    priceTable: run.priceTable,
    splits: run.splits,
    simulatedRoles: run.simulatedRoles,
    runDirectory,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(onEvent === undefined ? {} : { onEvent }),
    ...(options.resumeCommand === undefined ? {} : { resumeCommand: options.resumeCommand }),
  }).catch((error: unknown) => {
    if (!(SkillOptError.isInstance(error) && error.code === ERROR_CODES.budgetSpent)) throw error;
    return { budgetSpent: limitsAsSet(spentLimitsOf(error), options.spentBefore, budgetAsSet) };
  });
  if ('budgetSpent' in summary)
    return {
      ...base,
      tasks: taskCounts,
      outcome: 'budget-spent',
      budget: { spent: summary.budgetSpent },
      rules: { before: rulesBefore, after: rulesBefore, added: [], removed: [] },
      wouldStage: null,
      runDirectory,
      usage: nightUsage(summariseEntries(await readRunLedger(runDirectory))),
    };
  const history = await readRunHistory(runDirectory, summary.epochs * summary.stepsPerEpoch);
  const rulesAfter = rulesOfSkillText(await readFile(summary.bestSkillPath, 'utf8'));
  const accepted = summary.acceptedCandidates > 0;
  const documentAfter = writeLearnedRules(document, rulesAfter);
  const firstStep = history[0];
  return {
    ...base,
    tasks: { ...taskCounts, excluded: summary.excludedItems.map(({ itemId, ...rest }) => ({ id: itemId, ...rest })) },
    outcome: accepted ? 'accepted' : 'rejected',
    validation: {
      gateMetric: run.config.evaluation.gate_metric,
      before: { score: summary.baseline.score, hard: summary.baseline.selectionHard, soft: summary.baseline.selectionSoft },
      after: { score: summary.best.score, hard: summary.best.selectionHard, soft: summary.best.selectionSoft },
    },
    ...(firstStep?.trainScores[0] === undefined ? {} : { train: { hard: firstStep.trainScores[0].hard, soft: firstStep.trainScores[0].soft } }),
    ...(summary.test === null
      ? {}
      : {
          test: {
            before: { hard: summary.test.initial.hard, soft: summary.test.initial.soft },
            after: { hard: summary.test.best.hard, soft: summary.test.best.soft },
            scored: summary.test.best.scored,
          },
        }),
    gateDecisions: history.flatMap((record) =>
      'gate' in record && record.gate !== undefined ? [{ ...record.gate, partial: record.gate.itemsEvaluated < record.gate.itemsTotal }] : [],
    ),
    rules: {
      before: rulesBefore,
      after: rulesAfter,
      added: rulesAfter.filter((rule) => !rulesBefore.includes(rule)),
      removed: rulesBefore.filter((rule) => !rulesAfter.includes(rule)),
    },
    wouldStage: accepted && documentAfter !== document ? { documentPath: options.documentPath, document: documentAfter } : null,
    runDirectory,
    usage: nightUsage(summary.usage),
  };
}
