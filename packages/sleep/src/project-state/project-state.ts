import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { acquireDirectoryLock, type DirectoryLock } from '@skillopt/core';
import { advanceCheckpointsUnderLock } from '../checkpoints/checkpoint-store.js';
import { projectStateDirectory } from '../checkpoints/state-directory.js';
import type { SourceId } from '../harvest/session-record.js';
import { appendNightRecord, type NightRecord, readNightHistory } from './night-history.js';

/**
 * Where one project's Sleep files live, all under its folder of the state directory (outside the
 * project, since they hold prompts and replies), except a staging folder the user asked to keep in
 * the project.
 */
export interface ProjectStateLayout {
  project: string;
  stateDirectory: string;
  /** `<state directory>/projects/<name>-<hash>`. */
  directory: string;
  /** One folder per night: its tasks, the document as it began, core's run, the report. */
  nightsDirectory: string;
  /** Where proposals are staged unless the user asked for the project's own folder. */
  stagingRoot: string;
  /** `<project>/.skillopt-sleep/staging`, with `--staging-in-project`. */
  projectStagingRoot: string;
  /** Where an adoption keeps its lock and its journal while it runs. */
  adoptionDirectory: string;
  /** Where the nights cron starts (`sleep schedule`) append their output. */
  cronLogFile: string;
}

export function projectStateLayout(stateDirectory: string, project: string): ProjectStateLayout {
  const absoluteProject = path.resolve(project);
  const directory = projectStateDirectory(stateDirectory, absoluteProject);
  return {
    project: absoluteProject,
    stateDirectory,
    directory,
    nightsDirectory: path.join(directory, 'nights'),
    stagingRoot: path.join(directory, 'staging'),
    projectStagingRoot: path.join(absoluteProject, '.skillopt-sleep', 'staging'),
    adoptionDirectory: path.join(directory, 'adoption'),
    cronLogFile: path.join(directory, 'cron.log'),
  };
}

/** One project's state, held under its lock for as long as a night runs. */
export interface LockedProjectState {
  readonly layout: ProjectStateLayout;
  readonly lock: DirectoryLock;
  nights(): Promise<NightRecord[]>;
  recordNight(record: NightRecord): Promise<void>;
  /** Moves the checkpoints of the sources a completed night read up to `until` (epoch ms). */
  advanceCheckpoints(sources: readonly SourceId[], until: number): Promise<void>;
  release(): Promise<void>;
}

/**
 * Locks one project's state with core's directory lock: a second night on the same project is
 * refused, naming the process that holds it; a lock left by a killed night is taken over. The
 * original kept one state file for every project with no lock, so two nights raced on it and a
 * night counter and task archive were shared across projects (upstream-sleep §9 item 4).
 */
export async function lockProjectState(options: { stateDirectory: string; project: string; purpose: string }): Promise<LockedProjectState> {
  const layout = projectStateLayout(options.stateDirectory, options.project);
  await mkdir(layout.directory, { recursive: true });
  const lock = await acquireDirectoryLock(layout.directory, { purpose: options.purpose });
  return {
    layout,
    lock,
    nights: () => readNightHistory(layout.directory),
    recordNight: (record) => appendNightRecord(layout.directory, record),
    advanceCheckpoints: (sources, until) => advanceCheckpointsUnderLock(options.stateDirectory, layout.project, sources, until),
    release: () => lock.release(),
  };
}
