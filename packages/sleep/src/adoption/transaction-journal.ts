import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { readJsonFileIfExists, syncDirectory, writeFileAtomic } from '@skillopt/core';
import { z } from 'zod';
import { absolutePathSchema, exactJsonText, sha256Schema } from './schema-fields.js';

export const ADOPTION_JOURNAL_FORMAT = 'skillopt.sleep.adoption-journal.v1';
/** The write-ahead journal inside the journal directory; it exists only while a transaction is open. */
export const ADOPTION_JOURNAL_FILE = 'journal.json';

const journalChangeSchema = z.strictObject({
  /** The real path written (a symbolic link resolved). */
  livePath: absolutePathSchema,
  before: sha256Schema.nullable(),
  after: sha256Schema.nullable(),
  backupFile: absolutePathSchema.nullable(),
  /** Directories the transaction creates for the file, shallowest first. */
  createdDirectories: z.array(absolutePathSchema),
});

const transactionJournalSchema = z.strictObject({
  format: z.literal(ADOPTION_JOURNAL_FORMAT),
  transactionId: z.string().min(1),
  label: z.string(),
  startedAt: z.iso.datetime(),
  changes: z.array(journalChangeSchema),
});

export type TransactionJournal = z.infer<typeof transactionJournalSchema>;

export function journalFile(journalDirectory: string): string {
  return path.join(journalDirectory, ADOPTION_JOURNAL_FILE);
}

export async function readTransactionJournal(journalDirectory: string): Promise<TransactionJournal | undefined> {
  return readJsonFileIfExists(journalFile(journalDirectory), transactionJournalSchema, {
    description: 'the journal of an interrupted Sleep adoption',
    remedy:
      'The journal names the files an interrupted adoption or undo was writing and their backups; compare each with its backup by hand, then delete the journal.',
  });
}

export async function writeTransactionJournal(journalDirectory: string, journal: TransactionJournal): Promise<void> {
  await writeFileAtomic(journalFile(journalDirectory), exactJsonText(journal));
}

/** Deleting the journal is a transaction's commit point (or a rollback's end), so the deletion is made durable before anything reports success. */
export async function deleteTransactionJournal(journalDirectory: string): Promise<void> {
  await unlink(journalFile(journalDirectory));
  await syncDirectory(journalDirectory);
}
