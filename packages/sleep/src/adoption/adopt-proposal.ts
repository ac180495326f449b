import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { readStagedProposal, type StagedProposal } from '../staging/staged-proposals.js';
import {
  ADOPTION_RECEIPT_FORMAT,
  type AdoptionReceipt,
  type ReceiptDocument,
  type ReceiptEntry,
  type ReceiptReading,
  readAdoptionReceipt,
} from './adoption-receipt.js';
import { readFileIfPresent, sha256Of } from './file-sha256.js';
import {
  ADOPTION_REFUSED_ERROR_CODE,
  type ChangedFile,
  type FileChange,
  type PlannedChange,
  type RecoveryResult,
  recoverInterruptedTransaction,
  runFileTransaction,
} from './file-transaction.js';
import { exactJsonText } from './schema-fields.js';

/** The folder of a staging folder where adopting and undoing keep the files they replace. */
export const ADOPTION_BACKUP_FOLDER = 'backups';

export interface AdoptionOptions {
  /** The staged proposal's folder. */
  stagingDirectory: string;
  /** Where the transaction's journal and lock are kept (one per project); not a directory the caller has locked itself. */
  journalDirectory: string;
  /** Called after each live file is replaced or removed. */
  onFileWritten?: (livePath: string) => void | Promise<void>;
  now?: Date;
}

export interface AdoptionResult {
  stagingDirectory: string;
  action: ReceiptEntry['action'];
  /** What the receipt's new entry records of each document. */
  documents: ReceiptDocument[];
  /** An interrupted adoption or undo that was rolled back first. */
  recovered: RecoveryResult | undefined;
}

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ADOPTION_REFUSED_ERROR_CODE, category: 'user', message });
}

function shortSha(sha256: string | null): string {
  return sha256 === null ? 'no file' : `sha256 ${sha256.slice(0, 12)}…`;
}

function describeChange(file: ChangedFile, receiptFile: string, since: string): string {
  if (file.livePath === receiptFile) return `${receiptFile} changed (another adoption or undo of this proposal ran at the same time)`;
  return `${file.livePath} changed since ${since} (expected ${shortSha(file.expectedSha256)}, found ${shortSha(file.currentSha256)})`;
}

/** The proposal's text of each document, refused when a file is missing or no longer hashes to its pin. */
async function readProposedDocuments(proposal: StagedProposal): Promise<Buffer[]> {
  return Promise.all(
    proposal.manifest.documents.map(async (document) => {
      const file = path.join(proposal.directory, document.proposedFile);
      const bytes = await readFileIfPresent(file);
      if (bytes === undefined || sha256Of(bytes) !== document.proposedSha256)
        throw refused(
          `Nothing was adopted: the proposal ${file} is ${bytes === undefined ? 'missing' : 'not the text that was staged'} (the staging folder was edited or damaged). ` +
            'Stage a new night to get a proposal that can be adopted.',
        );
      return bytes;
    }),
  );
}

/** The receipt as one more file of the transaction, so a rollback takes its new entry back with the documents. */
function receiptChange(reading: ReceiptReading, entryOf: (plan: readonly PlannedChange[]) => ReceiptEntry): FileChange {
  return {
    livePath: reading.file,
    expectedSha256: reading.sha256,
    replacement: (plan) => {
      const receipt: AdoptionReceipt = { format: ADOPTION_RECEIPT_FORMAT, entries: [...(reading.receipt?.entries ?? []), entryOf(plan)] };
      return exactJsonText(receipt);
    },
  };
}

/** The receipt entry's documents: the first changes of a plan are the documents, in order; the receipt is the last. */
function receiptDocuments(
  plan: readonly PlannedChange[],
  hashes: ReadonlyArray<{ livePath: string; before: string | null; after: string | null }>,
): ReceiptDocument[] {
  return hashes.map((document, index) => ({
    livePath: document.livePath,
    sha256Before: document.before,
    sha256After: document.after,
    backupFile: plan[index]!.backupFile,
    createdDirectories: [...plan[index]!.createdDirectories],
  }));
}

/**
 * Adopts a staged proposal: every document it holds is written to its live path, or none is. A
 * transaction interrupted earlier is rolled back first. Refused when the proposal is already
 * adopted, when a proposed file is not the text that was staged, or when a live file changed
 * since the night read it (the night's rules were validated against that text). The receipt's new
 * entry names each document's hashes before and after and its backup.
 */
export async function adoptProposal(options: AdoptionOptions): Promise<AdoptionResult> {
  const recovered = await recoverInterruptedTransaction(options.journalDirectory);
  const proposal = await readStagedProposal(options.stagingDirectory);
  const reading = await readAdoptionReceipt(proposal.directory);
  const last = reading.receipt?.entries.at(-1);
  if (last?.action === 'adopt') throw refused(`${proposal.directory} was adopted at ${last.at}. Undo that adoption first to adopt it again.`);
  const proposed = await readProposedDocuments(proposal);
  const at = (options.now ?? new Date()).toISOString();
  const hashes = proposal.manifest.documents.map((document) => ({ livePath: document.livePath, before: document.liveSha256, after: document.proposedSha256 }));
  const changes: FileChange[] = proposal.manifest.documents.map((document, index) => ({
    livePath: document.livePath,
    expectedSha256: document.liveSha256,
    replacement: proposed[index]!,
  }));
  changes.push(receiptChange(reading, (plan) => ({ action: 'adopt', at, documents: receiptDocuments(plan, hashes) })));
  const transaction = await runFileTransaction({
    journalDirectory: options.journalDirectory,
    label: `adopt ${proposal.directory}`,
    changes,
    backupDirectory: path.join(proposal.directory, ADOPTION_BACKUP_FOLDER),
    ...(options.onFileWritten === undefined ? {} : { onFileWritten: options.onFileWritten }),
    explainRefusal: (changed) =>
      `Nothing was adopted: ${changed.map((file) => describeChange(file, reading.file, 'the night read it')).join('; ')}. ` +
      'The proposal was validated against the text the night read, so it is not written over your edit. ' +
      'Run a new night, which starts from the file as it is now, or move your edit aside (restore the file the night read) and adopt again.',
  });
  return {
    stagingDirectory: proposal.directory,
    action: 'adopt',
    documents: receiptDocuments(transaction.changes, hashes),
    recovered: recovered ?? transaction.recovered,
  };
}

/**
 * Undoes the last adoption of a staged proposal: each document is put back as it was before it
 * (from its backup, or removed when it did not exist, with the directories the adoption created
 * when they are empty), as one transaction. Refused unless the proposal is adopted, and when a
 * document changed since it was adopted: undoing would discard that change. An undone proposal
 * can be adopted again.
 */
export async function undoAdoption(options: AdoptionOptions): Promise<AdoptionResult> {
  const recovered = await recoverInterruptedTransaction(options.journalDirectory);
  const proposal = await readStagedProposal(options.stagingDirectory);
  const reading = await readAdoptionReceipt(proposal.directory);
  const adoption = reading.receipt?.entries.at(-1);
  if (adoption?.action !== 'adopt')
    throw refused(
      adoption === undefined
        ? `${proposal.directory} was never adopted, so there is nothing to undo.`
        : `${proposal.directory} was already undone at ${adoption.at}; there is nothing to undo.`,
    );
  const replacements = await Promise.all(
    adoption.documents.map(async (document) => {
      if (document.sha256Before === null || document.backupFile === null) return null;
      const backup = await readFileIfPresent(document.backupFile);
      if (backup === undefined || sha256Of(backup) !== document.sha256Before)
        throw refused(
          `Nothing was undone: the backup ${document.backupFile} of ${document.livePath} is ${backup === undefined ? 'missing' : 'not the file it backed up'}, ` +
            'so the version before the adoption cannot be restored from it.',
        );
      return backup;
    }),
  );
  const at = (options.now ?? new Date()).toISOString();
  const hashes = adoption.documents.map((document) => ({ livePath: document.livePath, before: document.sha256After, after: document.sha256Before }));
  const changes: FileChange[] = adoption.documents.map((document, index) => ({
    livePath: document.livePath,
    expectedSha256: document.sha256After,
    replacement: replacements[index]!,
    removeEmptyDirectories: document.createdDirectories,
  }));
  changes.push(receiptChange(reading, (plan) => ({ action: 'undo', at, documents: receiptDocuments(plan, hashes) })));
  const transaction = await runFileTransaction({
    journalDirectory: options.journalDirectory,
    label: `undo the adoption of ${proposal.directory}`,
    changes,
    backupDirectory: path.join(proposal.directory, ADOPTION_BACKUP_FOLDER),
    ...(options.onFileWritten === undefined ? {} : { onFileWritten: options.onFileWritten }),
    explainRefusal: (changed) =>
      `Nothing was undone: ${changed.map((file) => describeChange(file, reading.file, 'it was adopted')).join('; ')}. ` +
      'Undoing would discard that change. To undo anyway, save your edit elsewhere, put back the adopted text (the proposal in ' +
      `${proposal.directory}) and undo again; the versions from before the adoption are in ${path.join(proposal.directory, ADOPTION_BACKUP_FOLDER)}.`,
  });
  return {
    stagingDirectory: proposal.directory,
    action: 'undo',
    documents: receiptDocuments(transaction.changes, hashes),
    recovered: recovered ?? transaction.recovered,
  };
}
