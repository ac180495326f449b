import path from 'node:path';
import { parseJsonText } from '@skillopt/core';
import { z } from 'zod';
import { readFileIfPresent, sha256Of } from './file-sha256.js';
import { absolutePathSchema, sha256Schema } from './schema-fields.js';

export const ADOPTION_RECEIPT_FORMAT = 'skillopt.sleep.receipt.v1';
/** The receipt's name inside the staging folder it belongs to. */
export const ADOPTION_RECEIPT_FILE = 'receipt.json';

const receiptDocumentSchema = z
  .strictObject({
    livePath: absolutePathSchema,
    sha256Before: sha256Schema.nullable(),
    sha256After: sha256Schema.nullable(),
    /** The copy of the file as it was before; null when there was no file. */
    backupFile: absolutePathSchema.nullable(),
    /** The directories the action created for the file, shallowest first: undoing it removes them when they are empty. */
    createdDirectories: z.array(absolutePathSchema),
  })
  .refine((document) => (document.sha256Before === null) === (document.backupFile === null), 'backupFile is null exactly when sha256Before is');

const receiptEntrySchema = z.strictObject({
  action: z.enum(['adopt', 'undo']),
  at: z.iso.datetime(),
  documents: z.array(receiptDocumentSchema).min(1),
});

const adoptionReceiptSchema = z.strictObject({
  format: z.literal(ADOPTION_RECEIPT_FORMAT),
  entries: z.array(receiptEntrySchema).min(1),
});

export type ReceiptDocument = z.infer<typeof receiptDocumentSchema>;
export type ReceiptEntry = z.infer<typeof receiptEntrySchema>;
export type AdoptionReceipt = z.infer<typeof adoptionReceiptSchema>;

/** Where a staged proposal stands: never adopted, adopted, or adopted and then undone. */
export type ProposalStatus = 'pending' | 'adopted' | 'undone';

/** The receipt's last entry decides: each adoption and undo appends one. */
export function proposalStatus(receipt: AdoptionReceipt | undefined): ProposalStatus {
  const last = receipt?.entries.at(-1);
  if (last === undefined) return 'pending';
  return last.action === 'adopt' ? 'adopted' : 'undone';
}

export interface ReceiptReading {
  file: string;
  receipt: AdoptionReceipt | undefined;
  /** The hash of the bytes read, null when there is no receipt: the pin of the next entry's write. */
  sha256: string | null;
}

/**
 * Reads a staging folder's receipt once, for both its entries and its hash, so the entries a new
 * receipt extends are the very bytes the transaction pins.
 */
export async function readAdoptionReceipt(stagingDirectory: string): Promise<ReceiptReading> {
  const file = path.join(stagingDirectory, ADOPTION_RECEIPT_FILE);
  const bytes = await readFileIfPresent(file);
  if (bytes === undefined) return { file, receipt: undefined, sha256: null };
  const receipt = parseJsonText(file, bytes.toString('utf8'), adoptionReceiptSchema, {
    description: "a staged Sleep proposal's adoption receipt",
    remedy: 'It is written only by adopting and undoing; restore it from a copy of the staging folder, or stage a new night.',
  });
  return { file, receipt, sha256: sha256Of(bytes) };
}
