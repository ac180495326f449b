import { readFile } from 'node:fs/promises';
import path from 'node:path';

const MAX_DESCRIPTIONS = 3;
const MAX_HIGH_LEVEL_STEPS = 12;

interface TrajectoryData {
  task_type?: unknown;
  pddl_params?: Record<string, unknown>;
  turk_annotations?: { anns?: Array<{ task_desc?: unknown; high_descs?: unknown }> };
}

/**
 * What the optimizer may know about a game that the agent does not: from the `traj_data.json`
 * beside the game file, its task type, its PDDL parameters, up to three human descriptions of the
 * task and up to twelve human high-level steps. The original looked for the file relative to the
 * working directory and so found nothing unless it was run from the data folder; this reads it
 * beside the resolved game file. Undefined when the file is not there or not readable.
 */
export async function readReferenceText(gamefile: string): Promise<string | undefined> {
  let data: TrajectoryData;
  try {
    data = JSON.parse(await readFile(path.join(path.dirname(gamefile), 'traj_data.json'), 'utf8')) as TrajectoryData;
  } catch {
    return undefined;
  }
  const lines: string[] = [];
  if (typeof data.task_type === 'string') lines.push(`Task type: ${data.task_type}`);
  const parameters = Object.entries(data.pddl_params ?? {}).filter(([, value]) => value !== '' && value !== null && value !== false && value !== undefined);
  if (parameters.length > 0) lines.push(`Parameters: ${parameters.map(([key, value]) => `${key}=${String(value)}`).join(', ')}`);
  const annotations = data.turk_annotations?.anns ?? [];
  const descriptions = annotations.map((annotation) => annotation.task_desc).filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  if (descriptions.length > 0) lines.push('Human descriptions:', ...descriptions.slice(0, MAX_DESCRIPTIONS).map((text) => `- ${text.trim()}`));
  // Every annotator wrote the steps again; the first one's are enough.
  const firstSteps = annotations[0]?.high_descs;
  const steps = (Array.isArray(firstSteps) ? firstSteps : []).filter((text): text is string => typeof text === 'string');
  if (steps.length > 0) lines.push('Human steps:', ...steps.slice(0, MAX_HIGH_LEVEL_STEPS).map((text, index) => `${index + 1}. ${text.trim()}`));
  return lines.length === 0 ? undefined : lines.join('\n');
}
