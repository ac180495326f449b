import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { type ConfigLayerInput, type PackageResolver, writeFileAtomic, writeJsonAtomic } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { NightReport } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import { NIGHT_FILES, runNight } from './run-night.js';
import type { NightStageListener } from './night-stages.js';
import { fileNameTime } from '../file-name-time.js';

export interface DryRunNightOptions {
  /** A task file (`skillopt.sleep.tasks.v1`, or the original's), as mined or as reviewed. */
  tasksFile: string;
  /** The skill document whose learned block the night trains; it is read, never written. */
  skillFile: string;
  /**
   * Where the night's files go; default a new `<state directory>/dry-runs/<timestamp>-<suffix>`.
   * A night an earlier dry run left there is replaced.
   */
  outputDirectory?: string;
  layers?: readonly ConfigLayerInput[];
  overrides?: readonly string[];
  workingDirectory: string;
  resolver: PackageResolver;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Told each stage the night moves on to: replay, consolidate, report. */
  onStage?: NightStageListener | undefined;
  /**
   * Where the default output folder goes (`<state directory>/dry-runs/…`), and the backends' files
   * that the same command run again finds (`<state directory>/dry-runs/handoff`); default
   * `$SKILLOPT_SLEEP_HOME`, else ~/.skillopt-sleep.
   */
  stateDirectory?: string | undefined;
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

/** Every dry run's folder, and the folder the backends of every dry run keep their files in. */
const dryRunsDirectory = (stateDirectory: string): string => path.join(stateDirectory, 'dry-runs');

/** A new folder under `<state directory>/dry-runs`, named after the moment; two dry runs in the same second get two folders. */
async function freshDryRunDirectory(moment: Date, stateDirectory: string): Promise<string> {
  const parent = dryRunsDirectory(stateDirectory);
  await mkdir(parent, { recursive: true });
  return mkdtemp(path.join(parent, `${fileNameTime(moment)}-`));
}

/** The files of a dry run's night in its folder, beside the night's own (NIGHT_FILES). */
const REPORT_FILES = { json: 'report.json', markdown: 'report.md' } as const;

/**
 * The night an earlier dry run left in an --out folder (known by its document-before.md), its run
 * and report removed: the same command run again, once the handoff backend's requests are
 * answered, starts the night over there rather than finding a run in the way. The answers are in
 * the handoff folder, so nothing answered is lost. A folder that holds no night is left as it is.
 */
async function removeEarlierNight(outputDirectory: string): Promise<void> {
  const holdsNight = await access(path.join(outputDirectory, NIGHT_FILES.documentBefore)).then(
    () => true,
    () => false,
  );
  if (!holdsNight) return;
  for (const name of [NIGHT_FILES.run, REPORT_FILES.json, REPORT_FILES.markdown]) await rm(path.join(outputDirectory, name), { recursive: true, force: true });
}

/**
 * `sleep dry-run`: the whole night on a task file, staging nothing. The report is written beside
 * the night's run (report.json, report.md) and returned; the skill document is only read.
 */
export async function dryRunNight(options: DryRunNightOptions): Promise<DryRunNight> {
  const tasksFile = path.resolve(options.workingDirectory, options.tasksFile);
  const skillFile = path.resolve(options.workingDirectory, options.skillFile);
  const stateDirectory = options.stateDirectory ?? defaultStateDirectory();
  const outputDirectory =
    options.outputDirectory === undefined
      ? await freshDryRunDirectory(options.now ?? new Date(), stateDirectory)
      : path.resolve(options.workingDirectory, options.outputDirectory);
  const { file, warnings } = await readTaskFile(tasksFile);
  if (options.outputDirectory !== undefined) await removeEarlierNight(outputDirectory);
  await mkdir(outputDirectory, { recursive: true });
  const report = await runNight({
    tasks: file.tasks,
    documentPath: skillFile,
    nightDirectory: outputDirectory,
    ...(options.layers === undefined ? {} : { layers: options.layers }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
    workingDirectory: options.workingDirectory,
    // Each dry run has a folder of its own (without --out, a new one): the answers wait where every dry run finds them.
    backendFilesDirectory: dryRunsDirectory(stateDirectory),
    resolver: options.resolver,
    project: file.project,
    dryRun: true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.onStage === undefined ? {} : { onStage: options.onStage }),
  });
  options.onStage?.({ stage: 'report', message: `writing the report in ${outputDirectory}` });
  const markdown = renderNightReport(report);
  await writeJsonAtomic(path.join(outputDirectory, REPORT_FILES.json), report);
  await writeFileAtomic(path.join(outputDirectory, REPORT_FILES.markdown), markdown);
  return { report, markdown, outputDirectory, warnings };
}
