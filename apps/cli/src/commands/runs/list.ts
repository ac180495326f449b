import { statSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { SkillOptCommand } from '../../base-command.js';
import { formatScore, formatTable } from '../../output/format.js';
import { describeRunProblem, findRunDirectories, readRunOverview, type RunOverview } from '@skillopt/core';
import { writeLine } from '../../inspection/write-output.js';

const DEFAULT_FOLDER = 'outputs';

export default class RunsList extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'List the run directories under a folder.';
  static override description =
    'One row per run directory (a folder holding runtime_state.json or config.json) directly under --dir: its env, the steps done of the planned total, the validation score of the initial skill and of the best one, the test accuracy of both once the run finished, and whether it finished, stopped (resume it with `skillopt train --resume <dir>`) or is in progress.';
  static override examples = [
    { description: 'The runs under outputs/ (where train writes without --out)', command: '<%= config.bin %> runs list' },
    { description: 'The runs under another folder, as JSON', command: '<%= config.bin %> runs list --dir runs --json' },
  ];
  static override flags = {
    dir: Flags.string({ char: 'd', description: 'the folder holding run directories', default: DEFAULT_FOLDER }),
    json: Flags.boolean({ description: 'print the runs as a JSON array' }),
  };

  async run(): Promise<unknown[] | undefined> {
    const { flags } = await this.parse(RunsList);
    const workingDirectory = process.cwd();
    const folder = path.resolve(workingDirectory, flags.dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(folder).isDirectory();
    } catch {
      // reported below
    }
    if (!isDirectory && flags.dir === DEFAULT_FOLDER) {
      // No runs yet is not a mistake.
      if (this.jsonEnabled()) return [];
      writeLine(
        `No runs yet: there is no ${DEFAULT_FOLDER}/ folder here. \`skillopt train\` writes runs there unless --out or env.out_root says otherwise; pass --dir for another folder.`,
      );
      return undefined;
    }
    if (!isDirectory) throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${flags.dir} is not a folder` });

    const rows: Array<{ name: string; overview?: RunOverview; problem?: string }> = [];
    for (const directory of await findRunDirectories(folder)) {
      const name = path.relative(workingDirectory, directory) || '.';
      try {
        rows.push({ name, overview: await readRunOverview(directory) });
      } catch (error) {
        // One damaged run must not hide the others.
        rows.push({ name, problem: describeRunProblem(error, directory) });
      }
    }

    if (this.jsonEnabled())
      return rows.map((row) => (row.overview ? jsonRow(row.name, row.overview) : { name: row.name, status: 'unreadable', problem: row.problem }));
    if (rows.length === 0) {
      writeLine(`No run directories under ${flags.dir}.`);
      return undefined;
    }
    const table: string[][] = [['run', 'env', 'steps', 'validation', 'test', 'status']];
    for (const row of rows) {
      const run = row.overview;
      if (!run) {
        table.push([row.name, '—', '—', '—', '—', `unreadable: ${row.problem ?? ''}`]);
        continue;
      }
      table.push([
        row.name,
        run.environment ?? '—',
        `${run.stepsDone}/${run.stepsTotal ?? '?'}`,
        `${formatScore(run.baselineScore)} → ${formatScore(run.bestScore)}`,
        run.test ? `${formatScore(run.test.initial)} → ${formatScore(run.test.best)}` : '—',
        run.status === 'stopped' && run.stop ? `stopped (${run.stop.reason})` : run.status,
      ]);
    }
    writeLine(formatTable(table));
    return undefined;
  }
}

function jsonRow(name: string, run: RunOverview) {
  return {
    name,
    directory: run.directory,
    runId: run.runId ?? null,
    environment: run.environment ?? null,
    stepsDone: run.stepsDone,
    stepsTotal: run.stepsTotal ?? null,
    baselineScore: run.baselineScore,
    bestScore: run.bestScore,
    test: run.test,
    status: run.status,
    ...(run.stop ? { stop: run.stop } : {}),
  };
}
