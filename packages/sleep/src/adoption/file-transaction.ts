import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { acquireDirectoryLock, isFileNotFound, writeFileAtomic } from '@skillopt/core';
import { fileSha256, readFileIfPresent, sha256Of } from './file-sha256.js';
import { missingDirectories, resolveWriteTarget } from './live-path.js';
import {
  ADOPTION_JOURNAL_FORMAT,
  deleteTransactionJournal,
  journalFile,
  readTransactionJournal,
  type TransactionJournal,
  writeTransactionJournal,
} from './transaction-journal.js';

/** The code of a transaction refused before it wrote anything, because a file is not what it was planned against (a user error). */
export const ADOPTION_REFUSED_ERROR_CODE = 'adoption-refused';
/** The code of an interrupted transaction that cannot be rolled back, because a file changed since it was interrupted. */
export const ADOPTION_RECOVERY_CONFLICT_ERROR_CODE = 'adoption-recovery-conflict';

export type FileContent = string | Uint8Array;

/** What the transaction found and will do for one change, before it writes anything. */
export interface PlannedChange {
  /** The path as the change named it. */
  livePath: string;
  /** The path written: a symbolic link resolved, so the link stays a link. */
  realPath: string;
  sha256Before: string | null;
  /** Where the file as it was is copied; null when there is no file. */
  backupFile: string | null;
  /** The directories the transaction creates for the file, shallowest first. */
  createdDirectories: readonly string[];
}

export interface FileChange {
  /** Absolute. */
  livePath: string;
  /** The SHA-256 the file must have now; null: it must not exist. */
  expectedSha256: string | null;
  /**
   * The file's new content; null removes it. A function is given the whole transaction's plan and
   * returns the content, for a file that records the transaction itself (a receipt naming the backups).
   */
  replacement: FileContent | null | ((plan: readonly PlannedChange[]) => FileContent);
  /** For a removal: directories to remove too when that leaves them empty, shallowest first (as `createdDirectories` lists them). */
  removeEmptyDirectories?: readonly string[];
}

/** A file that is not what its change expects. */
export interface ChangedFile {
  livePath: string;
  expectedSha256: string | null;
  currentSha256: string | null;
}

export interface FileTransactionOptions {
  /** Where the journal and the lock are kept; created when missing. Not a directory the caller has locked itself. */
  journalDirectory: string;
  /** What the transaction is, for the journal and the messages ("adopt <staging folder>"). */
  label: string;
  changes: readonly FileChange[];
  /** Where the files as they were are copied, under names unique to the transaction. */
  backupDirectory: string;
  /** Called after each live file is replaced or removed (a test kills the process here). */
  onFileWritten?: (livePath: string) => void | Promise<void>;
  /** The message of the refusal when files are not what their changes expect; a generic one otherwise. */
  explainRefusal?: (changed: readonly ChangedFile[]) => string;
}

export interface AppliedChange extends PlannedChange {
  sha256After: string | null;
}

export interface RecoveryResult {
  transactionId: string;
  label: string;
  startedAt: string;
  /** The files put back as they were before the interrupted transaction (restored from their backups, or removed). */
  restoredFiles: string[];
  /** The directories the transaction had created, removed because they were empty. */
  removedDirectories: string[];
}

export interface TransactionResult {
  transactionId: string;
  changes: AppliedChange[];
  /** An interrupted transaction found in the journal directory and rolled back first. */
  recovered: RecoveryResult | undefined;
}

interface PreparedChange extends AppliedChange {
  content: FileContent | null;
  /** The bytes the file had, for its backup. */
  bytesBefore: Buffer | undefined;
  /** The mode of the file replaced, kept by its replacement. */
  mode: number | undefined;
  removeEmptyDirectories: readonly string[];
}

const PERMISSION_BITS = 0o7777;

function shortSha(sha256: string | null): string {
  return sha256 === null ? 'no file' : `sha256 ${sha256.slice(0, 12)}…`;
}

function genericRefusal(changed: readonly ChangedFile[]): string {
  const files = changed.map((file) => `${file.livePath} (expected ${shortSha(file.expectedSha256)}, found ${shortSha(file.currentSha256)})`);
  return (
    `Nothing was written: ${changed.length === 1 ? 'a file has' : `${changed.length} files have`} changed since the proposal was staged: ${files.join('; ')}. ` +
    'Run a new night, which starts from the files as they are now, or move the edit aside and try again.'
  );
}

/** A transaction id that sorts by time, so backups list in the order they were made. */
function newTransactionId(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

async function withJournalLock<Result>(journalDirectory: string, work: () => Promise<Result>): Promise<Result> {
  await mkdir(journalDirectory, { recursive: true });
  const lock = await acquireDirectoryLock(journalDirectory, { purpose: 'sleep adoption' });
  try {
    return await work();
  } finally {
    await lock.release();
  }
}

/** Checks every change against the files as they are, before anything is written. */
async function prepare(options: FileTransactionOptions, transactionId: string): Promise<PreparedChange[]> {
  const prepared: PreparedChange[] = [];
  const changed: ChangedFile[] = [];
  const realPaths = new Set<string>();
  const directoriesToCreate = new Set<string>();
  for (const [index, change] of options.changes.entries()) {
    if (!path.isAbsolute(change.livePath))
      throw new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message: `A transaction's paths must be absolute; got ${change.livePath}.` });
    const realPath = await resolveWriteTarget(change.livePath);
    if (realPaths.has(realPath))
      throw new SkillOptError({
        code: ERROR_CODES.internal,
        category: 'internal',
        message: `${realPath} is changed twice in one transaction (${options.label}).`,
      });
    realPaths.add(realPath);
    const bytesBefore = await readFileIfPresent(realPath);
    const sha256Before = bytesBefore === undefined ? null : sha256Of(bytesBefore);
    if (sha256Before !== change.expectedSha256) changed.push({ livePath: change.livePath, expectedSha256: change.expectedSha256, currentSha256: sha256Before });
    const createdDirectories =
      bytesBefore === undefined && change.replacement !== null
        ? (await missingDirectories(realPath)).filter((directory) => !directoriesToCreate.has(directory))
        : [];
    for (const directory of createdDirectories) directoriesToCreate.add(directory);
    prepared.push({
      livePath: change.livePath,
      realPath,
      sha256Before,
      backupFile:
        bytesBefore === undefined ? null : path.join(path.resolve(options.backupDirectory), `${transactionId}-${index + 1}-${path.basename(change.livePath)}`),
      createdDirectories,
      sha256After: null,
      content: null,
      bytesBefore,
      mode: bytesBefore === undefined ? undefined : (await stat(realPath)).mode & PERMISSION_BITS,
      removeEmptyDirectories: change.removeEmptyDirectories ?? [],
    });
  }
  if (changed.length > 0)
    throw new SkillOptError({
      code: ADOPTION_REFUSED_ERROR_CODE,
      category: 'user',
      message: (options.explainRefusal ?? genericRefusal)(changed),
      details: { changed },
    });
  const plan: PlannedChange[] = prepared.map(({ livePath, realPath, sha256Before, backupFile, createdDirectories }) => ({
    livePath,
    realPath,
    sha256Before,
    backupFile,
    createdDirectories,
  }));
  for (const [index, change] of options.changes.entries()) {
    const content = typeof change.replacement === 'function' ? change.replacement(plan) : change.replacement;
    prepared[index]!.content = content;
    prepared[index]!.sha256After = content === null ? null : sha256Of(content);
  }
  return prepared;
}

/** Writes `content` atomically over `filePath`, with `mode` when given (a new file otherwise has the default one). */
async function writeWithMode(filePath: string, content: FileContent, mode: number | undefined): Promise<void> {
  await writeFileAtomic(filePath, content, mode === undefined ? {} : { mode });
}

/** Removes the directories that are empty, deepest first; returns those removed. */
async function removeEmptyDirectories(shallowestFirst: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const directory of [...shallowestFirst].reverse()) {
    try {
      await rmdir(directory);
      removed.push(directory);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
  return removed;
}

async function apply(prepared: readonly PreparedChange[], onFileWritten: FileTransactionOptions['onFileWritten']): Promise<void> {
  for (const change of prepared) {
    if (change.content === null) {
      await unlink(change.realPath);
      await removeEmptyDirectories(change.removeEmptyDirectories);
    } else {
      for (const directory of change.createdDirectories) {
        await mkdir(directory).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        });
      }
      await writeWithMode(change.realPath, change.content, change.mode);
    }
    await onFileWritten?.(change.livePath);
  }
  for (const change of prepared) {
    const current = await fileSha256(change.realPath);
    if (current !== change.sha256After)
      throw new SkillOptError({
        code: ADOPTION_REFUSED_ERROR_CODE,
        category: 'user',
        message: `${change.realPath} changed while it was being written (another program wrote it at the same time); the transaction was rolled back.`,
      });
  }
}

/**
 * A killed `writeFileAtomic` leaves its temporary file (`.<name>.<pid>.<random>.tmp`) beside the
 * file it was writing; it is removed so a directory the transaction created can be removed too.
 */
async function removeInterruptedTemporaryFiles(filePath: string): Promise<void> {
  const prefix = `.${path.basename(filePath)}.`;
  const names = await readdir(path.dirname(filePath)).catch((error: unknown) => {
    if (isFileNotFound(error)) return [] as string[];
    throw error;
  });
  for (const name of names) if (name.startsWith(prefix) && name.endsWith('.tmp')) await rm(path.join(path.dirname(filePath), name), { force: true });
}

function recoveryConflict(
  journalDirectory: string,
  journal: TransactionJournal,
  change: TransactionJournal['changes'][number],
  problem: string,
): SkillOptError {
  const earlier = change.backupFile === null ? `remove ${change.livePath} (it did not exist before)` : `copy ${change.backupFile} over ${change.livePath}`;
  return new SkillOptError({
    code: ADOPTION_RECOVERY_CONFLICT_ERROR_CODE,
    category: 'user',
    message:
      `An interrupted transaction (${journal.label}, started ${journal.startedAt}) cannot be rolled back: ${problem}. ` +
      `Nothing more was changed, and its journal ${journalFile(journalDirectory)} is kept. ` +
      `To finish the rollback, save what you want to keep of ${change.livePath} elsewhere, ${earlier}, and run the command again.`,
    details: { journal: journalFile(journalDirectory), livePath: change.livePath, backupFile: change.backupFile },
  });
}

/**
 * Puts every file of the journal back as it was, then removes the directories the transaction
 * created (when empty), the journal and the transaction's backups. A file that is neither what
 * the transaction wrote nor what was there before was changed by someone else since: it is not
 * touched, and the journal stays, so nothing is lost.
 */
async function rollBack(journalDirectory: string, journal: TransactionJournal): Promise<RecoveryResult> {
  const restoredFiles: string[] = [];
  for (const change of [...journal.changes].reverse()) {
    await removeInterruptedTemporaryFiles(change.livePath);
    const current = await fileSha256(change.livePath);
    if (current === change.before) continue;
    if (current !== change.after)
      throw recoveryConflict(
        journalDirectory,
        journal,
        change,
        `${change.livePath} was changed since (it is ${shortSha(current)}, neither the version before nor the one written)`,
      );
    if (change.before === null) {
      await unlink(change.livePath);
    } else {
      const backup = change.backupFile === null ? undefined : await readFileIfPresent(change.backupFile);
      if (change.backupFile === null || backup === undefined || sha256Of(backup) !== change.before)
        throw recoveryConflict(journalDirectory, journal, change, `the backup ${change.backupFile ?? '(none)'} of ${change.livePath} is missing or damaged`);
      await writeWithMode(change.livePath, backup, (await stat(change.backupFile)).mode & PERMISSION_BITS);
    }
    restoredFiles.push(change.livePath);
  }
  const removedDirectories = await removeEmptyDirectories(journal.changes.flatMap((change) => change.createdDirectories));
  await deleteTransactionJournal(journalDirectory);
  // The backups of a transaction that did not happen back nothing up.
  for (const change of journal.changes) if (change.backupFile !== null) await rm(change.backupFile, { force: true });
  return { transactionId: journal.transactionId, label: journal.label, startedAt: journal.startedAt, restoredFiles, removedDirectories };
}

async function recoverLocked(journalDirectory: string): Promise<RecoveryResult | undefined> {
  const journal = await readTransactionJournal(journalDirectory);
  return journal === undefined ? undefined : rollBack(journalDirectory, journal);
}

/**
 * Rolls back a transaction a killed process left open (its journal is still there), under the
 * journal directory's lock; undefined when there is none. See runFileTransaction.
 */
export async function recoverInterruptedTransaction(journalDirectory: string): Promise<RecoveryResult | undefined> {
  const directory = path.resolve(journalDirectory);
  return withJournalLock(directory, () => recoverLocked(directory));
}

/**
 * Changes several files as one: afterwards either every file has its new content or every file is
 * as it was. Under the journal directory's lock (core's directory lock: a killed holder's lock is
 * taken over), an interrupted transaction is rolled back first. Then every file must have the hash
 * its change expects, or nothing is written (`adoption-refused`). The files as they are are copied
 * to the backup directory, and a write-ahead journal names each file, its hash before and after,
 * its backup and the directories to be created. Each file is then replaced atomically (keeping
 * its mode; through a symbolic link to its target) or removed, and all are verified. Deleting the
 * journal commits. A failure before that rolls back at once; a process killed before that leaves
 * the journal, and the next transaction or recoverInterruptedTransaction rolls it back.
 */
export async function runFileTransaction(options: FileTransactionOptions): Promise<TransactionResult> {
  const journalDirectory = path.resolve(options.journalDirectory);
  return withJournalLock(journalDirectory, async () => {
    const recovered = await recoverLocked(journalDirectory);
    const startedAt = new Date();
    const transactionId = newTransactionId(startedAt);
    const prepared = await prepare(options, transactionId);
    for (const change of prepared)
      if (change.backupFile !== null && change.bytesBefore !== undefined) await writeWithMode(change.backupFile, change.bytesBefore, change.mode);
    const journal: TransactionJournal = {
      format: ADOPTION_JOURNAL_FORMAT,
      transactionId,
      label: options.label,
      startedAt: startedAt.toISOString(),
      changes: prepared.map((change) => ({
        livePath: change.realPath,
        before: change.sha256Before,
        after: change.sha256After,
        backupFile: change.backupFile,
        createdDirectories: [...change.createdDirectories],
      })),
    };
    await writeTransactionJournal(journalDirectory, journal);
    try {
      await apply(prepared, options.onFileWritten);
    } catch (error) {
      try {
        await rollBack(journalDirectory, journal);
      } catch (rollbackError) {
        // The rollback's own error says what is left to do by hand; the failure that caused it goes with it.
        if (rollbackError instanceof Error) rollbackError.cause ??= error;
        throw rollbackError;
      }
      throw error;
    }
    await deleteTransactionJournal(journalDirectory);
    return {
      transactionId,
      changes: prepared.map(({ livePath, realPath, sha256Before, sha256After, backupFile, createdDirectories }) => ({
        livePath,
        realPath,
        sha256Before,
        sha256After,
        backupFile,
        createdDirectories,
      })),
      recovered,
    };
  });
}
