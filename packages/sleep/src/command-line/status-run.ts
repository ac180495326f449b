import { access } from 'node:fs/promises';
import path from 'node:path';
import { type DirectoryLockHolder, readDirectoryLock } from '@skillopt/core';
import { createCheckpointStore } from '../checkpoints/checkpoint-store.js';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { isInScope, projectScope } from '../harvest/project-scope.js';
import type { SourceId } from '../harvest/session-record.js';
import type { NightRecord } from '../project-state/night-history.js';
import { readNightHistory } from '../project-state/night-history.js';
import { projectStateLayout } from '../project-state/project-state.js';
import { listStagedProposals, type StagedProposal } from '../staging/staged-proposals.js';
import { ADOPTION_JOURNAL_FILE } from '../adoption/transaction-journal.js';
import { readSessionEndRecords } from '../session-end/session-end-log.js';

export interface StatusRequest {
  project?: string | undefined;
  stateDirectory?: string | undefined;
  workingDirectory: string;
}

export interface SleepStatus {
  project: string;
  /** The project's folder of Sleep's state. */
  stateDirectory: string;
  /** How many nights have ended (any outcome), and the last five, newest last. */
  nights: number;
  recentNights: NightRecord[];
  /** Who holds the project's state lock: a night running now; absent when none. */
  runningNight?: DirectoryLockHolder;
  /**
   * Sessions in the project (or a folder below it) that the agents' session-end hooks recorded
   * ending since its last night started, or ever when it has had none.
   */
  sessionsEndedSinceLastNight: number;
  /** When the newest recorded session of the project ended (ISO); null when none is recorded. */
  lastSessionEndedAt: string | null;
  /** Where each source's next night starts reading, as ISO times. */
  checkpoints: Partial<Record<SourceId, string>>;
  /** Every staged proposal of the project, oldest first, with whether it was adopted or undone. */
  proposals: Array<{ directory: string; night: number; skill: string; createdAt: string; status: StagedProposal['status']; documents: string[] }>;
  /** An adoption was killed in the middle: the next `sleep adopt` rolls it back before anything else. */
  interruptedAdoption: boolean;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The project's sessions in the session-end log: how many ended since `since`, and when the newest did. */
async function recordedSessionEnds(stateDirectory: string, project: string, since: string | undefined) {
  const scope = projectScope([project]);
  const ends = (await readSessionEndRecords(stateDirectory)).records
    .filter((record) => isInScope(scope, record.project))
    .map((record) => Date.parse(record.endedAt));
  const start = since === undefined ? undefined : Date.parse(since);
  const newest = ends.reduce<number | undefined>((latest, end) => (latest === undefined || end > latest ? end : latest), undefined);
  return {
    sessionsEndedSinceLastNight: ends.filter((end) => start === undefined || end >= start).length,
    lastSessionEndedAt: newest === undefined ? null : new Date(newest).toISOString(),
  };
}

/** `sleep status`: what Sleep knows of one project, read without taking any lock. */
export async function readSleepStatus(request: StatusRequest): Promise<SleepStatus> {
  const project = path.resolve(request.workingDirectory, request.project ?? '.');
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory() : path.resolve(request.workingDirectory, request.stateDirectory);
  const layout = projectStateLayout(stateDirectory, project);
  const history = await readNightHistory(layout.directory);
  const holder = await readDirectoryLock(layout.directory).catch(() => undefined);
  const checkpoints: Partial<Record<SourceId, string>> = {};
  for (const [source, time] of Object.entries(await createCheckpointStore(stateDirectory).readProject(project)))
    checkpoints[source as SourceId] = new Date(time).toISOString();
  const proposals = [...(await listStagedProposals(layout.stagingRoot)), ...(await listStagedProposals(layout.projectStagingRoot))]
    .sort((first, second) => first.manifest.createdAt.localeCompare(second.manifest.createdAt))
    .map((proposal) => ({
      directory: proposal.directory,
      night: proposal.manifest.night,
      skill: proposal.manifest.skill,
      createdAt: proposal.manifest.createdAt,
      status: proposal.status,
      documents: proposal.manifest.documents.map((document) => document.livePath),
    }));
  return {
    project,
    stateDirectory: layout.directory,
    nights: history.length,
    recentNights: history.slice(-5),
    ...(typeof holder === 'object' ? { runningNight: holder } : {}),
    // A night harvests what ended before it started: what ended since is the next night's.
    ...(await recordedSessionEnds(stateDirectory, project, history.at(-1)?.startedAt)),
    checkpoints,
    proposals,
    interruptedAdoption: await exists(path.join(layout.adoptionDirectory, ADOPTION_JOURNAL_FILE)),
  };
}

function skillsText(record: NightRecord): string {
  const percent = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
  return record.skills
    .map((skill) => {
      const scores = skill.validation === undefined ? '' : `, validation ${percent(skill.validation.before)} → ${percent(skill.validation.after)}`;
      return `; ${skill.skill} ${skill.outcome}${scores}`;
    })
    .join('');
}

function sessionEndsText(status: SleepStatus): string {
  const label = status.nights === 0 ? 'Sessions ended (no night yet)' : 'Sessions ended since the last night';
  if (status.lastSessionEndedAt === null) return `${label}: none recorded by an agent's session-end hook.`;
  return `${label}: ${status.sessionsEndedSinceLastNight} (the newest ended ${status.lastSessionEndedAt}).`;
}

/** The status as a person reads it, one fact a line. */
export function statusSummary(status: SleepStatus, commandName = 'skillopt-sleep'): string {
  const lines = [`Project: ${status.project}`, `State: ${status.stateDirectory}`, `Nights: ${status.nights}`];
  if (status.runningNight !== undefined)
    lines.push(`A night is running now: pid ${status.runningNight.pid} on ${status.runningNight.hostname}, since ${status.runningNight.startedAt}.`);
  for (const record of status.recentNights)
    lines.push(
      `  night ${record.night} (${record.startedAt}): ${record.outcome}${skillsText(record)}${record.reason === undefined ? '' : ` — ${record.reason}`}`,
    );
  lines.push(sessionEndsText(status));
  const checkpoints = Object.entries(status.checkpoints);
  lines.push(
    checkpoints.length === 0
      ? 'Checkpoints: none yet (the next night reads the lookback window).'
      : `Checkpoints: ${checkpoints.map(([source, time]) => `${source} ${time}`).join(', ')}`,
  );
  if (status.interruptedAdoption) lines.push(`An adoption was interrupted; \`${commandName} adopt\` rolls it back first, so nothing stays half-applied.`);
  if (status.proposals.length === 0) lines.push('Staged proposals: none.');
  for (const proposal of status.proposals)
    lines.push(`Staged for ${proposal.skill} (night ${proposal.night}, ${proposal.status}): ${proposal.directory}\n  for ${proposal.documents.join(', ')}`);
  const pending = status.proposals.filter((proposal) => proposal.status === 'pending');
  if (pending.length > 0) lines.push(`Review ${path.join(pending.at(-1)!.directory, 'report.md')}, then \`${commandName} adopt\`.`);
  return `${lines.join('\n')}\n`;
}
