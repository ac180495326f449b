import path from 'node:path';
import { parseArgs } from 'node:util';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { TASK_SPLITS, writeTaskFile } from '@skillopt/sleep';
import { convertOpenClawTasks } from './openclaw-task-conversion.js';

/** Where a workspace's learned rules live, as the /sleep skill passes it: OpenClaw loads `<workspace>/skills`. */
const LEARNED_SKILL = path.join('skills', 'skillopt-sleep-learned', 'SKILL.md');

export const CONVERT_USAGE = `skillopt-plugin-openclaw convert <OpenClaw tasks.json> [--project <folder>] [--out <file>] [--json]

convert    turns an OpenClaw task file (a JSON array of tasks, each with a reference and a rubric) into a reviewed
           Sleep task file (skillopt.sleep.tasks.v1) for skillopt-sleep's run --tasks and dry-run --tasks
  --project  the project the tasks are for: the OpenClaw workspace a night runs in (default: the current folder)
  --out      the task file to write (default: <name>.tasks.json in the current folder, <name> the input's file name
             without -tasks.json; devops-tasks.json gives devops.tasks.json)
  --json     print the result as one {"type":"result"} JSON line
`;

const OPTIONS = {
  project: { type: 'string', short: 'p' },
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface ConvertIo {
  write(text: string): void;
  writeError(text: string): void;
  workingDirectory: string;
}

function usageError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${message}\n\nUsage: ${CONVERT_USAGE}` });
}

/** `devops-tasks.json` → `devops.tasks.json`: the category the original's cron loop named its files by. */
function defaultOutputName(inputFile: string): string {
  const name = path.basename(inputFile).replace(/\.json$/i, '');
  const category = name.replace(/[-_.]tasks$/i, '');
  return `${category === '' ? name : category}.tasks.json`;
}

/** `skillopt-plugin-openclaw convert`: reads the OpenClaw file, writes the reviewed task file, says what it holds. */
export async function runConvert(argv: readonly string[], io: ConvertIo): Promise<number> {
  let parsed: { values: { project?: string; out?: string; json?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.write(`Usage: ${CONVERT_USAGE}`);
    return 0;
  }
  if (positionals.length !== 1) throw usageError(`convert takes one OpenClaw task file, got ${positionals.length}`);
  const inputFile = path.resolve(io.workingDirectory, positionals[0] as string);
  const project = path.resolve(io.workingDirectory, values.project ?? '.');
  const tasksFile = path.resolve(io.workingDirectory, values.out ?? defaultOutputName(inputFile));
  if (tasksFile === inputFile) throw usageError(`--out names the input file ${inputFile}; the conversion never overwrites it`);

  const { file, warnings } = await convertOpenClawTasks({ inputFile, project });
  await writeTaskFile(tasksFile, file);
  for (const warning of warnings) io.writeError(`Warning: ${warning}\n`);

  const splits = Object.fromEntries(TASK_SPLITS.map((split) => [split, file.tasks.filter((task) => task.split === split).length]));
  const rubricTasks = file.tasks.filter((task) => task.referenceKind === 'rubric').length;
  if (values.json) {
    io.write(`${JSON.stringify({ type: 'result', tasksFile, project, tasks: file.tasks.length, rubricTasks, splits, warnings })}\n`);
    return 0;
  }
  io.write(
    [
      `Converted ${file.tasks.length} tasks of ${inputFile} (${rubricTasks} judged by their rubric; ${splits.train} train, ${splits.val} validation, ${splits.test} test).`,
      `Wrote ${tasksFile}, reviewed, for the project ${project}.`,
      // What `/sleep run <category>` runs: the night stages a proposal, and nothing live changes until adopt.
      `A night on them: skillopt-sleep run --project ${project} --tasks ${tasksFile} --skill ${path.join(project, LEARNED_SKILL)}`,
      '',
    ].join('\n'),
  );
  return 0;
}
