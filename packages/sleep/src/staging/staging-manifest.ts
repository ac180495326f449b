import { z } from 'zod';
import { absolutePathSchema, plainFileNameSchema, sha256Schema } from '../adoption/schema-fields.js';

export const STAGING_FORMAT = 'skillopt.sleep.staging.v1';

/** The publication marker of a staged proposal: written last, so a folder without it is not one. */
export const STAGING_MANIFEST_FILE = 'manifest.json';
export const STAGING_REPORT_JSON_FILE = 'report.json';
export const STAGING_REPORT_MARKDOWN_FILE = 'report.md';

const stagedDocumentSchema = z.strictObject({
  /** The live document the proposal replaces or creates. */
  livePath: absolutePathSchema,
  /** The proposal's file, inside the staging folder. */
  proposedFile: plainFileNameSchema,
  proposedSha256: sha256Schema,
  /** The live file's bytes when the night read them; null when it did not exist. Adoption refuses a file that no longer matches. */
  liveSha256: sha256Schema.nullable(),
});

export const stagingManifestSchema = z.strictObject({
  format: z.literal(STAGING_FORMAT),
  /** The night's id; the staging folder is `<nightId>-<skill>` (with `-2`, `-3`… when staged again). */
  nightId: plainFileNameSchema,
  night: z.number().int().min(1),
  /** The skill the proposal is for (its SKILL.md's folder): a night proposes one per skill it learned for, adopted each on its own. */
  skill: plainFileNameSchema,
  project: absolutePathSchema,
  createdAt: z.iso.datetime(),
  documents: z.array(stagedDocumentSchema).min(1),
  /** Where the night's replays, ledger and events are: the evidence behind the proposal. */
  nightDirectory: absolutePathSchema,
});

export type StagedDocument = z.infer<typeof stagedDocumentSchema>;
export type StagingManifest = z.infer<typeof stagingManifestSchema>;
