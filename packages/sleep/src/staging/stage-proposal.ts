import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { writeFileAtomic, writeJsonAtomic } from '@skillopt/core';
import { z } from 'zod';
import { sha256Of } from '../adoption/file-sha256.js';
import { exactJsonText } from '../adoption/schema-fields.js';
import type { StagedProposal } from './staged-proposals.js';
import {
  STAGING_FORMAT,
  STAGING_MANIFEST_FILE,
  STAGING_REPORT_JSON_FILE,
  STAGING_REPORT_MARKDOWN_FILE,
  type StagingManifest,
  stagingManifestSchema,
} from './staging-manifest.js';

export interface ProposedDocument {
  /** The live document, absolute. */
  livePath: string;
  /** Its whole new text. */
  proposed: string;
  /** The SHA-256 of the live file's bytes when the night read it; null when it did not exist. */
  liveSha256: string | null;
}

export interface StageProposalOptions {
  /** Where proposals are staged, one folder each; created when missing. */
  stagingRoot: string;
  nightId: string;
  /** The skill the proposal is for; it names the folder with the night's id. */
  skill: string;
  night: number;
  project: string;
  /** The night's own folder: its replays, ledger and events, the evidence for whoever reviews the proposal. */
  nightDirectory: string;
  documents: readonly ProposedDocument[];
  /** The night's report, kept as `report.json`. */
  report: unknown;
  reportMarkdown: string;
  now?: Date;
}

function callerError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message });
}

/** The manifest of a proposal, checked in full before anything is written. */
function manifestOf(options: StageProposalOptions): StagingManifest {
  if (options.documents.length === 0) throw callerError('stageProposal needs at least one document; a night that changed nothing stages nothing.');
  const livePaths = new Set<string>();
  const documents = options.documents.map((document, index) => {
    if (!path.isAbsolute(document.livePath))
      throw callerError(`The live path of a staged document must be absolute; got ${JSON.stringify(document.livePath)}.`);
    const livePath = path.normalize(document.livePath);
    if (livePaths.has(livePath)) throw callerError(`${livePath} is staged twice in one proposal; each live document has one proposal.`);
    livePaths.add(livePath);
    if (document.proposed.trim() === '') throw callerError(`The proposal for ${livePath} is empty; an empty document is never staged.`);
    const proposedSha256 = sha256Of(document.proposed);
    // Staging an unchanged document would let adoption create or rewrite a file for nothing (upstream-sleep §9 item 17).
    if (proposedSha256 === document.liveSha256)
      throw callerError(`The proposal for ${livePath} is the document as it is; an unchanged document is never staged.`);
    return { livePath, proposedFile: `proposed-${index + 1}-${path.basename(livePath)}`, proposedSha256, liveSha256: document.liveSha256 };
  });
  const manifest = stagingManifestSchema.safeParse({
    format: STAGING_FORMAT,
    nightId: options.nightId,
    night: options.night,
    skill: options.skill,
    project: options.project,
    createdAt: (options.now ?? new Date()).toISOString(),
    documents,
    nightDirectory: options.nightDirectory,
  });
  if (!manifest.success) throw callerError(`A proposal cannot be staged with these options:\n${z.prettifyError(manifest.error)}`);
  return manifest.data;
}

/** Creates `<root>/<name>`, or the first of `<name>-2`, `-3`… that does not exist yet: mkdir is the atomic claim. */
async function reserveFolder(root: string, name: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const directory = path.join(root, attempt === 1 ? name : `${name}-${attempt}`);
    try {
      await mkdir(directory);
      return directory;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Stages a night's proposal for review: the proposed documents, the report in JSON and Markdown,
 * then the manifest, which publishes the folder. Every file is written atomically, and a failure
 * removes the folder, so a proposal is either all there or not there at all. Nothing live is touched.
 */
export async function stageProposal(options: StageProposalOptions): Promise<StagedProposal> {
  const manifest = manifestOf(options);
  const root = path.resolve(options.stagingRoot);
  await mkdir(root, { recursive: true });
  const directory = await reserveFolder(root, `${manifest.nightId}-${manifest.skill}`);
  try {
    for (const [index, document] of manifest.documents.entries())
      await writeFileAtomic(path.join(directory, document.proposedFile), options.documents[index]!.proposed);
    await writeJsonAtomic(path.join(directory, STAGING_REPORT_JSON_FILE), options.report);
    await writeFileAtomic(path.join(directory, STAGING_REPORT_MARKDOWN_FILE), options.reportMarkdown);
    await writeFileAtomic(path.join(directory, STAGING_MANIFEST_FILE), exactJsonText(manifest));
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return { directory, manifest, status: 'pending', receipt: undefined };
}
