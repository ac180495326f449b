import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { type ConfigLayerInput, type PackageResolver, writeFileAtomic, writeJsonAtomic } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { NightReport } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import { runNight } from './run-night.js';
import { fileNameTime } from '../file-name-time.js';

export interface DryRunNightOptions {
  /** A task file (`skillopt.sleep.tasks.v1`, or the original's), as mined or as reviewed. */
  tasksFile: string;
  /** The skill document whose learned block the night trains; it is read, never written. */
  skillFile: string;
  /** Where the night's files go; default a new `<state directory>/dry-runs/<timestamp>-<suffix>`. */
  outputDirectory?: string;
  layers?: readonly ConfigLayerInput[];
  overrides?: readonly string[];
  workingDirectory: string;
  resolver: PackageResolver;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** The moment the dry run is named after; default now. */
  now?: Date;
}

export interface DryRunNight {
  report: NightReport;
  /** The report as Markdown, as written to report.md. */
  markdown: string;
  outputDirectory: string;
  /** What the task file held that was not used (unknown keys), for the user to see. */
  warnings: string[];
}

/** A new folder under `<state directory>/dry-runs`, named after the moment; two dry runs in the same second get two folders. */
async function freshDryRunDirectory(moment: Date): Promise<string> {
  const parent = path.join(defaultStateDirectory(), 'dry-runs');
  await mkdir(parent, { recursive: true });
  return mkdtemp(path.join(parent, `${fileNameTime(moment)}-`));
}

/**
 * `sleep dry-run`: the whole night on a task file, staging nothing. The report is written beside
 * the night's run (report.json, report.md) and returned; the skill document is only read.
 */
export async function dryRunNight(options: DryRunNightOptions): Promise<DryRunNight> {
  const tasksFile = path.resolve(options.workingDirectory, options.tasksFile);
  const skillFile = path.resolve(options.workingDirectory, options.skillFile);
  const outputDirectory =
    options.outputDirectory === undefined
      ? await freshDryRunDirectory(options.now ?? new Date())
      : path.resolve(options.workingDirectory, options.outputDirectory);
  const { file, warnings } = await readTaskFile(tasksFile);
  await mkdir(outputDirectory, { recursive: true });
  const report = await runNight({
    tasks: file.tasks,
    documentPath: skillFile,
    nightDirectory: outputDirectory,
    ...(options.layers === undefined ? {} : { layers: options.layers }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
    workingDirectory: options.workingDirectory,
    resolver: options.resolver,
    project: file.project,
    dryRun: true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  const markdown = renderNightReport(report);
  await writeJsonAtomic(path.join(outputDirectory, 'report.json'), report);
  await writeFileAtomic(path.join(outputDirectory, 'report.md'), markdown);
  return { report, markdown, outputDirectory, warnings };
}
