import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { type AdoptionResult, adoptProposal, undoAdoption } from '../adoption/adopt-proposal.js';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { projectStateLayout } from '../project-state/project-state.js';
import { listStagedProposals, readStagedProposal, type StagedProposal } from '../staging/staged-proposals.js';

/** The code of the error for an adopt (or undo) with nothing to act on: a user matter, exit 2. */
export const NOTHING_TO_ADOPT_ERROR_CODE = 'nothing-to-adopt';

export interface AdoptRequest {
  project?: string | undefined;
  /** The staged proposal's folder; default the project's latest one waiting (or, to undo, the latest adopted). */
  staging?: string | undefined;
  undo?: boolean | undefined;
  stateDirectory?: string | undefined;
  workingDirectory: string;
}

/**
 * The proposal to act on: the one named, else the project's newest. Adopting takes it only while
 * it is pending (an older pending proposal was made from a text a newer night already replaced);
 * undoing takes the newest adopted one.
 */
async function chosenProposal(request: AdoptRequest, stateDirectory: string): Promise<StagedProposal> {
  if (request.staging !== undefined) return readStagedProposal(path.resolve(request.workingDirectory, request.staging));
  const project = path.resolve(request.workingDirectory, request.project ?? '.');
  const layout = projectStateLayout(stateDirectory, project);
  const proposals = [...(await listStagedProposals(layout.stagingRoot)), ...(await listStagedProposals(layout.projectStagingRoot))].sort((first, second) =>
    first.manifest.createdAt.localeCompare(second.manifest.createdAt),
  );
  const newest = proposals.at(-1);
  const chosen = request.undo ? proposals.filter((proposal) => proposal.status === 'adopted').at(-1) : newest?.status === 'pending' ? newest : undefined;
  if (chosen !== undefined) return chosen;
  const newestText = newest === undefined ? 'none is staged' : `the newest, night ${newest.manifest.night}'s, is ${newest.status}`;
  throw new SkillOptError({
    code: NOTHING_TO_ADOPT_ERROR_CODE,
    category: 'user',
    message: request.undo
      ? `No adopted proposal of ${project} to undo (${newestText}).`
      : `No staged proposal of ${project} is waiting for adoption (${newestText}). A night stages one when its gate accepts new rules: run \`sleep run\` first, or name a proposal with --staging.`,
    details: { project, staged: proposals.length },
  });
}

/**
 * `sleep adopt` and `sleep adopt --undo`: one transaction on a staged proposal, with the journal
 * and lock in the folder of the project the proposal was staged for (read from its manifest, so a
 * proposal named with --staging is adopted under its own project's lock).
 */
export async function adoptStaged(request: AdoptRequest): Promise<AdoptionResult> {
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory() : path.resolve(request.workingDirectory, request.stateDirectory);
  const proposal = await chosenProposal(request, stateDirectory);
  const journalDirectory = projectStateLayout(stateDirectory, proposal.manifest.project).adoptionDirectory;
  const options = { stagingDirectory: proposal.directory, journalDirectory };
  return request.undo ? undoAdoption(options) : adoptProposal(options);
}

/** What an adoption did, one line a document. */
export function adoptionSummary(result: AdoptionResult, commandName = 'skillopt-sleep'): string {
  const lines: string[] = [];
  if (result.recovered !== undefined)
    lines.push(
      `First rolled back an interrupted ${result.recovered.label} (started ${result.recovered.startedAt}): restored ${result.recovered.restoredFiles.length} file(s).`,
    );
  for (const document of result.documents) {
    if (result.action === 'adopt')
      lines.push(
        document.sha256Before === null
          ? `Created ${document.livePath}.`
          : `Updated ${document.livePath} (the file it replaced is kept as ${document.backupFile}).`,
      );
    else lines.push(document.sha256After === null ? `Removed ${document.livePath}, which the adoption had created.` : `Restored ${document.livePath}.`);
  }
  lines.push(
    result.action === 'adopt'
      ? `Adopted ${result.stagingDirectory}. To put it back: ${commandName} adopt --undo`
      : `Undid the adoption of ${result.stagingDirectory}; it can be adopted again.`,
  );
  return `${lines.join('\n')}\n`;
}
