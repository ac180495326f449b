import { open } from 'node:fs/promises';

/**
 * The rows a tool wrote since its last checkpoint, folded into the database's pages. OpenCode and
 * the Copilot CLI run SQLite in WAL mode: a commit appends the changed pages to `<db>-wal`, and
 * the main file catches up only at a checkpoint, so the newest sessions are often in the WAL
 * alone. sql.js opens a database from bytes and cannot read a WAL file, so the committed frames
 * are applied here, as SQLite itself would when it reads the database:
 *
 * - the header (32 bytes) names the byte order of the checksums (magic 0x377f0682 little-endian,
 *   0x377f0683 big-endian), the page size and two salts, and carries a checksum of itself;
 * - each frame is a 24-byte header (page number, database size in pages after this commit or 0,
 *   the two salts, a checksum running on from the previous frame's) followed by one page;
 * - a frame belongs to the log only while its salts equal the header's and its running checksum
 *   verifies — a checkpoint restarts the log with new salts and leaves old frames behind it;
 * - frames apply up to the last valid commit frame; those after it are an unfinished transaction.
 */

const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC_LITTLE_ENDIAN = 0x377f0682;
const MAGIC_BIG_ENDIAN = 0x377f0683;
const FORMAT_VERSION = 3007000;

export interface WalOverlay {
  /** The database as of the WAL's last valid commit; the input itself when nothing was committed. */
  database: Buffer;
  /** Pages taken from the WAL. */
  pagesApplied: number;
  /** Committed transactions found. */
  commits: number;
  /** Bytes of the WAL file scanned (a committed page read again to apply it is not counted twice). */
  bytesRead: number;
}

interface RunningChecksum {
  first: number;
  second: number;
}

/** SQLite's WAL checksum over `bytes` (a multiple of 8), continuing from `start`. */
function walChecksum(bytes: Buffer, bigEndian: boolean, start: RunningChecksum): RunningChecksum {
  let first = start.first;
  let second = start.second;
  for (let offset = 0; offset + 8 <= bytes.length; offset += 8) {
    const word1 = bigEndian ? bytes.readUInt32BE(offset) : bytes.readUInt32LE(offset);
    const word2 = bigEndian ? bytes.readUInt32BE(offset + 4) : bytes.readUInt32LE(offset + 4);
    first = (first + word1 + second) >>> 0;
    second = (second + word2 + first) >>> 0;
  }
  return { first, second };
}

function isValidPageSize(size: number): boolean {
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0;
}

/** The page size a database file's header states (bytes 16–17, where 1 means 65536). */
function databasePageSize(database: Buffer): number | undefined {
  if (database.length < 100) return undefined;
  const stated = database.readUInt16BE(16);
  return stated === 1 ? 65536 : stated;
}

/**
 * Applies the committed frames of the WAL file `walFile` over `database` (the main file's bytes).
 * The WAL is read frame by frame, never held whole: only the page numbers and offsets of the
 * committed frames are kept, then those pages are read once more into the result. A WAL whose
 * header is not valid is empty to SQLite, and so it is here.
 */
export async function applyWriteAheadLog(database: Buffer, walFile: string, signal?: AbortSignal): Promise<WalOverlay> {
  const handle = await open(walFile, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    let bytesRead = (await handle.read(header, 0, HEADER_BYTES, 0)).bytesRead;
    const unchanged = { database, pagesApplied: 0, commits: 0, bytesRead };
    if (bytesRead < HEADER_BYTES) return unchanged;
    const magic = header.readUInt32BE(0);
    if (magic !== MAGIC_LITTLE_ENDIAN && magic !== MAGIC_BIG_ENDIAN) return unchanged;
    const bigEndian = magic === MAGIC_BIG_ENDIAN;
    const pageSize = header.readUInt32BE(8);
    if (header.readUInt32BE(4) !== FORMAT_VERSION || !isValidPageSize(pageSize)) return unchanged;
    const headerChecksum = walChecksum(header.subarray(0, 24), bigEndian, { first: 0, second: 0 });
    if (headerChecksum.first !== header.readUInt32BE(24) || headerChecksum.second !== header.readUInt32BE(28)) return unchanged;
    const mainPageSize = databasePageSize(database);
    if (mainPageSize !== undefined && mainPageSize !== pageSize) {
      throw new Error(`the WAL's page size (${pageSize}) differs from the database's (${mainPageSize})`);
    }
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);

    // Where the newest committed copy of each page sits in the WAL, and the pending transaction's.
    const committed = new Map<number, number>();
    let pending = new Map<number, number>();
    let committedPages: number | undefined;
    let commits = 0;
    let checksum = headerChecksum;
    const frame = Buffer.alloc(FRAME_HEADER_BYTES + pageSize);
    for (let offset = HEADER_BYTES; ; offset += frame.length) {
      signal?.throwIfAborted();
      const { bytesRead: count } = await handle.read(frame, 0, frame.length, offset);
      bytesRead += count;
      if (count < frame.length) break;
      const pageNumber = frame.readUInt32BE(0);
      const pagesAfterCommit = frame.readUInt32BE(4);
      if (pageNumber === 0 || frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      const running = walChecksum(frame.subarray(FRAME_HEADER_BYTES), bigEndian, walChecksum(frame.subarray(0, 8), bigEndian, checksum));
      if (running.first !== frame.readUInt32BE(16) || running.second !== frame.readUInt32BE(20)) break;
      checksum = running;
      pending.set(pageNumber, offset + FRAME_HEADER_BYTES);
      if (pagesAfterCommit !== 0) {
        for (const [page, pageOffset] of pending) committed.set(page, pageOffset);
        pending = new Map();
        committedPages = pagesAfterCommit;
        commits += 1;
      }
    }
    if (committedPages === undefined) return { ...unchanged, bytesRead };

    const result = Buffer.alloc(committedPages * pageSize);
    database.copy(result, 0, 0, Math.min(database.length, result.length));
    let pagesApplied = 0;
    for (const [page, pageOffset] of committed) {
      // A commit that shrank the database leaves earlier frames of pages now beyond its end.
      if (page > committedPages) continue;
      signal?.throwIfAborted();
      await handle.read(result, (page - 1) * pageSize, pageSize, pageOffset);
      pagesApplied += 1;
    }
    return { database: result, pagesApplied, commits, bytesRead };
  } finally {
    await handle.close();
  }
}
