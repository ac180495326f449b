import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isFileNotFound, readJsonFile, readJsonFileIfExists } from '@skillopt/core';
import { type AdoptionReceipt, type ProposalStatus, proposalStatus, readAdoptionReceipt } from '../adoption/adoption-receipt.js';
import { STAGING_MANIFEST_FILE, type StagingManifest, stagingManifestSchema } from './staging-manifest.js';

/** A published staging folder: its manifest, and where its adoption stands according to its receipt. */
export interface StagedProposal {
  /** The staging folder, absolute. */
  directory: string;
  manifest: StagingManifest;
  status: ProposalStatus;
  receipt: AdoptionReceipt | undefined;
}

const manifestReading = {
  description: "a staged Sleep proposal's manifest",
  remedy: 'A staging folder is published by its manifest, written last; move the folder aside and stage the night again.',
};

async function withAdoptionStatus(directory: string, manifest: StagingManifest): Promise<StagedProposal> {
  const { receipt } = await readAdoptionReceipt(directory);
  return { directory, manifest, status: proposalStatus(receipt), receipt };
}

/** Reads one staging folder; a missing or malformed manifest is an error naming the file. */
export async function readStagedProposal(directory: string): Promise<StagedProposal> {
  const absolute = path.resolve(directory);
  return withAdoptionStatus(absolute, await readJsonFile(path.join(absolute, STAGING_MANIFEST_FILE), stagingManifestSchema, manifestReading));
}

/**
 * Every published proposal under `stagingRoot`, oldest first (by when it was staged, then by
 * folder name). A folder without a manifest was never published (staging was interrupted) and is
 * passed over; one whose manifest is malformed is an error, so damage is not hidden.
 */
export async function listStagedProposals(stagingRoot: string): Promise<StagedProposal[]> {
  const root = path.resolve(stagingRoot);
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if (isFileNotFound(error)) return [];
    throw error;
  }
  const proposals: StagedProposal[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const directory = path.join(root, entry.name);
    const manifest = await readJsonFileIfExists(path.join(directory, STAGING_MANIFEST_FILE), stagingManifestSchema, manifestReading);
    if (manifest !== undefined) proposals.push(await withAdoptionStatus(directory, manifest));
  }
  return proposals.sort(
    (left, right) =>
      Date.parse(left.manifest.createdAt) - Date.parse(right.manifest.createdAt) ||
      (left.directory < right.directory ? -1 : left.directory > right.directory ? 1 : 0),
  );
}
