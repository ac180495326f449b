import { readFile } from 'node:fs/promises';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { parseTaskFileDocument, type TaskFile, type TaskRecord } from '@skillopt/sleep';

/** What a converted file names as its source: the tasks were written for OpenClaw, not mined from sessions. */
const OPENCLAW_SOURCE = 'openclaw';

/** The OpenClaw wrapper read a task without `reference_kind` as a rubric task (upstream-sleep §7.6, run_sleep.py). */
const OPENCLAW_DEFAULT_REFERENCE_KIND = 'rubric';

export interface OpenClawConversion {
  /** The reviewed task file, ready for writeTaskFile. */
  file: TaskFile;
  /** What was read but not used, for the user to see. */
  warnings: string[];
}

export interface OpenClawConversionRequest {
  /** The OpenClaw task file: a JSON array of tasks, each with a `rubric` beside its `reference`. */
  inputFile: string;
  /** The project folder (absolute) the tasks belong to: a night for that project replays them. */
  project: string;
}

function invalid(inputFile: string, message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `Cannot convert ${inputFile}: ${message}.` });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What Sleep's judge grades a rubric task by. Sleep's task record has one text for that (its
 * `reference`, which the LLM judge reads as the rubric); an OpenClaw task has two, the rubric and
 * an answer that meets it. The judge gets both, the rubric first, so neither is lost.
 */
export function judgeRubricText(rubric: string, reference: string): string {
  return reference.trim() === '' ? rubric : `${rubric}\n\nA reference answer that meets this rubric:\n${reference}`;
}

function convertTask(task: TaskRecord, rubric: string, project: string, warnings: string[]): TaskRecord {
  // The OpenClaw `project` is a category name (devops-infrastructure-check), not a folder: it stays as a tag.
  const tags = task.project === '' || task.tags.includes(task.project) ? task.tags : [...task.tags, task.project];
  if (rubric.trim() === '') return { ...task, project, tags };
  if (task.referenceKind !== 'rubric') {
    warnings.push(`task ${task.id}: its rubric is not used: a task whose reference_kind is "${task.referenceKind}" is not judged by a rubric`);
    return { ...task, project, tags };
  }
  return { ...task, project, tags, reference: judgeRubricText(rubric, task.reference) };
}

/**
 * An OpenClaw task file as a Sleep task file (`skillopt.sleep.tasks.v1`): each task read as Sleep
 * reads the original's snake_case tasks (its split, outcome and judge kept, `judge: {}` meaning
 * none), its `rubric` given to the judge with its `reference`, its project the given folder. The
 * file is marked reviewed: a person wrote these tasks and their rubrics, nothing was mined.
 */
export async function convertOpenClawTasks(request: OpenClawConversionRequest): Promise<OpenClawConversion> {
  const { inputFile, project } = request;
  let document: unknown;
  try {
    document = JSON.parse(await readFile(inputFile, 'utf8')) as unknown;
  } catch (error) {
    throw invalid(inputFile, error instanceof Error ? error.message : String(error));
  }
  if (isObject(document) && typeof document.format === 'string')
    throw invalid(inputFile, `it is already a task file (${document.format}); pass it to skillopt-sleep's --tasks as it is`);
  if (!Array.isArray(document)) throw invalid(inputFile, 'an OpenClaw task file is a JSON array of tasks');
  if (document.length === 0) throw invalid(inputFile, 'it holds no tasks');

  const rubrics: string[] = [];
  const problems: string[] = [];
  const tasks = document.map((value, index) => {
    if (!isObject(value)) return value;
    const { rubric, ...task } = value;
    if (rubric !== undefined && typeof rubric !== 'string')
      problems.push(`task ${typeof task.id === 'string' ? task.id : `#${index + 1}`}: rubric must be a string`);
    rubrics[index] = typeof rubric === 'string' ? rubric : '';
    return { reference_kind: OPENCLAW_DEFAULT_REFERENCE_KIND, ...task };
  });
  if (problems.length > 0) throw invalid(inputFile, problems.join('; '));

  const { file, warnings } = parseTaskFileDocument(tasks, inputFile);
  const ids = file.tasks.map((task) => task.id);
  const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (repeated.length > 0) throw invalid(inputFile, `task ids must be unique, and ${repeated.join(', ')} repeat`);

  return {
    file: {
      project,
      source: OPENCLAW_SOURCE,
      sessionCount: 0,
      targetSkillPath: '',
      reviewed: true,
      tasks: file.tasks.map((task, index) => convertTask(task, rubrics[index] ?? '', project, warnings)),
    },
    warnings,
  };
}
