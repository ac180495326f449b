import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';
import { type AdoptionResult, adoptProposal, undoAdoption } from '../adoption/adopt-proposal.js';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { projectStateLayout } from '../project-state/project-state.js';
import { listStagedProposals, readStagedProposal, type StagedProposal } from '../staging/staged-proposals.js';

/** The code of the error for an adopt (or undo) with nothing to act on: a user matter, exit 2. */
export const NOTHING_TO_ADOPT_ERROR_CODE = 'nothing-to-adopt';
/** The code of the error for an adopt (or undo) that could mean several skills' proposals: name them. */
export const SELECTION_REQUIRED_ERROR_CODE = 'selection-required';

export interface AdoptRequest {
  project?: string | undefined;
  /** The staged proposal's folder; default: chosen by skill among the project's proposals. */
  staging?: string | undefined;
  /** The skills whose proposals to adopt (or undo), by name. */
  skills?: readonly string[] | undefined;
  /** Every skill's proposal that can be adopted (or undone). */
  allSkills?: boolean | undefined;
  undo?: boolean | undefined;
  stateDirectory?: string | undefined;
  workingDirectory: string;
}

function userError(code: string, message: string, details: Record<string, unknown>): SkillOptError {
  return new SkillOptError({ code, category: 'user', message, details });
}

/**
 * What can be acted on, one proposal per skill: each skill's newest proposal when it is pending
 * (to adopt; an older one was made from a text a newer night already replaced), or its newest
 * adopted one (to undo).
 */
function actionable(proposals: readonly StagedProposal[], undo: boolean): StagedProposal[] {
  const bySkill = new Map<string, StagedProposal>();
  for (const proposal of proposals) {
    if (undo && proposal.status !== 'adopted') continue;
    bySkill.set(proposal.manifest.skill, proposal);
  }
  return [...bySkill.values()].filter((proposal) => proposal.status === (undo ? 'adopted' : 'pending'));
}

/** The proposals to act on: the one named by folder, else by skill among the project's, else the only one there is. */
async function chosenProposals(request: AdoptRequest, stateDirectory: string): Promise<StagedProposal[]> {
  if (request.staging !== undefined) return [await readStagedProposal(path.resolve(request.workingDirectory, request.staging))];
  const project = path.resolve(request.workingDirectory, request.project ?? '.');
  const layout = projectStateLayout(stateDirectory, project);
  const proposals = [...(await listStagedProposals(layout.stagingRoot)), ...(await listStagedProposals(layout.projectStagingRoot))].sort((first, second) =>
    first.manifest.createdAt.localeCompare(second.manifest.createdAt),
  );
  const undo = request.undo === true;
  const candidates = actionable(proposals, undo);
  const verb = undo ? 'undo' : 'adopt';
  const available = candidates.map((proposal) => `${proposal.manifest.skill} (night ${proposal.manifest.night})`);
  if (request.skills !== undefined && request.skills.length > 0)
    return request.skills.map((skill) => {
      const chosen = candidates.find((proposal) => proposal.manifest.skill === skill);
      if (chosen !== undefined) return chosen;
      const nearest = nearestWord(
        skill,
        candidates.map((proposal) => proposal.manifest.skill),
      );
      throw userError(
        NOTHING_TO_ADOPT_ERROR_CODE,
        `No proposal of skill "${skill}" to ${verb} in ${project}${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} (${available.length === 0 ? 'none can be' : `these can be: ${available.join(', ')}`}).`,
        { project, skill },
      );
    });
  if (request.allSkills || candidates.length === 1) {
    if (candidates.length > 0) return candidates;
  } else if (candidates.length > 1)
    throw userError(
      SELECTION_REQUIRED_ERROR_CODE,
      `${candidates.length} skills have a proposal to ${verb} in ${project}: ${available.join(', ')}. Name them with --skill <name> (repeatable), or --all-skills.`,
      { project, skills: candidates.map((proposal) => proposal.manifest.skill) },
    );
  throw userError(
    NOTHING_TO_ADOPT_ERROR_CODE,
    undo
      ? `No adopted proposal of ${project} to undo (${proposals.length} staged).`
      : `No staged proposal of ${project} is waiting for adoption (${proposals.length} staged, none pending as its skill's newest). A night stages one when its gate accepts new rules: run \`sleep run\` first, or name a proposal with --staging.`,
    { project, staged: proposals.length },
  );
}

/**
 * `sleep adopt` and `sleep adopt --undo`: one transaction per chosen proposal, with the journal and
 * lock in the folder of the project it was staged for (read from its manifest, so a proposal
 * named with --staging is adopted under its own project's lock).
 */
export async function adoptStaged(request: AdoptRequest): Promise<AdoptionResult[]> {
  const selections = [
    ...(request.staging === undefined ? [] : ['--staging']),
    ...(request.skills === undefined || request.skills.length === 0 ? [] : ['--skill']),
    ...(request.allSkills ? ['--all-skills'] : []),
  ];
  if (selections.length > 1)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `give one of --staging, --skill and --all-skills, not ${selections.join(' and ')}`,
    });
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory() : path.resolve(request.workingDirectory, request.stateDirectory);
  const results: AdoptionResult[] = [];
  for (const proposal of await chosenProposals(request, stateDirectory)) {
    const journalDirectory = projectStateLayout(stateDirectory, proposal.manifest.project).adoptionDirectory;
    const options = { stagingDirectory: proposal.directory, journalDirectory };
    results.push(await (request.undo ? undoAdoption(options) : adoptProposal(options)));
  }
  return results;
}

/** What the adoptions did, one line a document. */
export function adoptionSummary(results: readonly AdoptionResult[], commandName = 'skillopt-sleep'): string {
  const lines: string[] = [];
  for (const result of results) {
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
  }
  return `${lines.join('\n')}\n`;
}
