import { readFile } from 'node:fs/promises';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord, writeJsonAtomic } from '@skillopt/core';
import { z } from 'zod';
import { validateChecks } from '../judge/validate-checks.js';
import { assignSplits, type SplitFractions } from './split-assignment.js';
import { REFERENCE_KINDS, type RuleJudge, TASK_ORIGINS, TASK_OUTCOMES, type TaskRecord } from './task-record.js';

export const TASK_FILE_FORMAT = 'skillopt.sleep.tasks.v1';
/** The original's format name; its files are read, never written. */
export const LEGACY_TASK_FILE_FORMAT = 'skillopt_sleep.tasks.v1';

export interface TaskFile {
  project: string;
  /** The agent tool the sessions were harvested from. */
  source: string;
  sessionCount: number;
  targetSkillPath: string;
  /** Set by a person who has read the tasks and their references; `sleep mine` writes false. */
  reviewed: boolean;
  tasks: TaskRecord[];
}

export interface TaskFileReading {
  file: TaskFile;
  /** What was read but not used (unknown keys, with the nearest known one), for the user to see. */
  warnings: string[];
}

/** The original's snake_case names, read as ours. */
const LEGACY_TASK_KEYS: Record<string, keyof TaskRecord> = {
  context_excerpt: 'contextExcerpt',
  attempted_solution: 'attemptedSolution',
  reference_kind: 'referenceKind',
  source_sessions: 'sourceSessions',
  derived_from: 'derivedFrom',
  skill_hint: 'skillHint',
};
const LEGACY_HEADER_KEYS: Record<string, keyof TaskFile> = {
  transcript_source: 'source',
  n_sessions: 'sessionCount',
  target_skill_path: 'targetSkillPath',
};
/** The original's split names: `replay` was training, `holdout` validation. */
const LEGACY_SPLITS: Record<string, TaskRecord['split']> = { replay: 'train', holdout: 'val' };

// The shape of a rule check; what each op needs of its argument is validateChecks's to say.
const ruleCheckSchema = z.object({ op: z.string().min(1), arg: z.union([z.string(), z.number(), z.null()]).optional() });
const judgeSchema = z.union([z.object({}).strict(), z.object({ kind: z.literal('rule').optional(), checks: z.array(ruleCheckSchema) })]);

const taskSchema = z.object({
  id: z.string().min(1),
  project: z.string().default(''),
  intent: z.string().min(1),
  contextExcerpt: z.string().default(''),
  system: z.string().default(''),
  attemptedSolution: z.string().default(''),
  outcome: z.enum(TASK_OUTCOMES).default('unknown'),
  referenceKind: z.enum(REFERENCE_KINDS).default('none'),
  reference: z.string().default(''),
  judge: judgeSchema.optional(),
  tags: z.array(z.string()).default([]),
  sourceSessions: z.array(z.string()).default([]),
  split: z
    .string()
    .default('train')
    .transform((split) => LEGACY_SPLITS[split] ?? split)
    .pipe(z.enum(['train', 'val', 'test'])),
  origin: z.enum(TASK_ORIGINS).default('real'),
  derivedFrom: z.string().default(''),
  skillHint: z.string().default(''),
});
const TASK_KEYS = Object.keys(taskSchema.shape);

const headerSchema = z.object({
  project: z.string().default(''),
  source: z.string().default(''),
  sessionCount: z.number().int().nonnegative().default(0),
  targetSkillPath: z.string().default(''),
  reviewed: z.boolean().default(false),
  tasks: z.array(z.unknown()),
});
const HEADER_KEYS = ['format', ...Object.keys(headerSchema.shape)];

function invalid(path: string, problems: string[]): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `Invalid task file ${path}: ${problems.join('; ')}.` });
}

/** `value`'s keys in our names; keys neither we nor the original know become warnings naming the nearest known key. */
function renameKeys(value: Record<string, unknown>, legacy: Record<string, string>, known: readonly string[], where: string, warnings: string[]) {
  const renamed: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const name = legacy[key] ?? key;
    if (known.includes(name)) {
      renamed[name] = entry;
      continue;
    }
    const nearest = nearestWord(key, [...known, ...Object.keys(legacy)]);
    warnings.push(`${where}: unknown key "${key}" is ignored${nearest === undefined ? '' : ` (did you mean "${nearest.word}"?)`}`);
  }
  return renamed;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readTask(value: unknown, index: number, problems: string[], warnings: string[]): TaskRecord | undefined {
  const label = isObject(value) && typeof value.id === 'string' ? `task ${value.id}` : `task #${index + 1}`;
  if (!isObject(value)) {
    problems.push(`${label}: must be an object`);
    return undefined;
  }
  const parsed = taskSchema.safeParse(renameKeys(value, LEGACY_TASK_KEYS, TASK_KEYS, label, warnings));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${label}: ${issue.path.join('.') || '(task)'}: ${issue.message}`);
    return undefined;
  }
  const { judge, ...task } = parsed.data;
  // What each op needs of its argument: an unknown op or an uncompilable pattern is an error here,
  // before a night pays for replays it could not judge.
  const validation = validateChecks(judge ?? null);
  for (const error of validation.errors) problems.push(`${label}: ${error}`);
  for (const warning of validation.warnings) warnings.push(`${label}: ${warning}`);
  if (validation.errors.length > 0) return undefined;
  // The original wrote `{}` for "no judge"; a judge with checks is always a rule judge.
  return judge !== undefined && 'checks' in judge ? { ...task, judge: { kind: 'rule', checks: judge.checks } as RuleJudge } : task;
}

/** One task record as a task file holds it (ours or the original's keys), or undefined when it is not one. */
export function parseTaskRecord(value: unknown): TaskRecord | undefined {
  return readTask(value, 0, [], []);
}

/**
 * Reads a task file: ours, the original's snake_case one, or a bare array of tasks. Values of the
 * wrong type are errors listing every task at fault; unknown keys are warnings with the nearest
 * known key, not silently dropped as the original did. Legacy splits are renamed, and a file of two
 * or more tasks none of which is in val or test is split with `fractions` — both fractions, where
 * the original applied only its holdout fraction and never made a test split (upstream-sleep §9
 * item 3). Rule judges are validated as the rule judge validates them (validateChecks): errors fail the
 * file, warnings (a shape-only judge, a check that always passes) are returned.
 */
export async function readTaskFile(path: string, fractions: SplitFractions = {}): Promise<TaskFileReading> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw invalid(path, [error instanceof Error ? error.message : String(error)]);
  }
  return parseTaskFileDocument(document, path, fractions);
}

/**
 * A task file's parsed JSON read as readTaskFile reads it, for a converter that has the document in
 * memory (another tool's task file, reshaped); its errors name `where`.
 */
export function parseTaskFileDocument(document: unknown, where: string, fractions: SplitFractions = {}): TaskFileReading {
  const warnings: string[] = [];
  let header: z.infer<typeof headerSchema>;
  if (Array.isArray(document)) header = headerSchema.parse({ tasks: document });
  else if (isObject(document)) {
    if (document.format !== undefined && document.format !== TASK_FILE_FORMAT && document.format !== LEGACY_TASK_FILE_FORMAT)
      throw invalid(where, [`format must be "${TASK_FILE_FORMAT}", got ${JSON.stringify(document.format)}`]);
    const parsed = headerSchema.safeParse(renameKeys(document, LEGACY_HEADER_KEYS, HEADER_KEYS, 'file', warnings));
    if (!parsed.success)
      throw invalid(
        where,
        parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`),
      );
    header = parsed.data;
  } else throw invalid(where, ['expected an object with "tasks" or an array of tasks']);
  const problems: string[] = [];
  const tasks = header.tasks.map((value, index) => readTask(value, index, problems, warnings)).filter((task) => task !== undefined);
  if (problems.length > 0) throw invalid(where, problems);
  const split = tasks.length >= 2 && !tasks.some((task) => task.split !== 'train') ? assignSplits(tasks, fractions) : tasks;
  return { file: { ...header, tasks: split }, warnings };
}

/** Writes a task file in our format, atomically: a reader sees the old file or the new one, never half of one. */
export async function writeTaskFile(path: string, file: TaskFile): Promise<void> {
  const { project, source, sessionCount, targetSkillPath, reviewed, tasks } = file;
  await writeJsonAtomic(path, { format: TASK_FILE_FORMAT, project, source, sessionCount, targetSkillPath, reviewed, tasks });
}
