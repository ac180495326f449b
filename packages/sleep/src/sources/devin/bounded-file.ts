import { open } from 'node:fs/promises';

/**
 * A small file read whole, up to a size cap. Devin's transcripts and agentmemory's store are single
 * JSON documents, not JSON Lines, so they cannot be streamed line by line as the other sources
 * are; the cap is what keeps memory bounded instead: a harvest holds one such file at a time,
 * never more than `maxBytes` of it, and a larger file is reported and passed over.
 */
export type BoundedRead = { kind: 'read'; text: string; bytesRead: number } | { kind: 'too-large'; bytes: number };

/** 64 MiB: far above any transcript a person's session writes, far below what a harvest may hold. */
export const MAX_FILE_BYTES = 64 << 20;

export async function readBoundedText(file: string, maxBytes: number = MAX_FILE_BYTES): Promise<BoundedRead> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return { kind: 'too-large', bytes: size };
    // The size when opened: a file still being written is read as it was then; if that cut a JSON
    // document short it is reported as corrupt, and its later mtime brings it back the next night.
    const buffer = Buffer.allocUnsafe(size);
    let bytesRead = 0;
    while (bytesRead < size) {
      const { bytesRead: count } = await handle.read(buffer, bytesRead, size - bytesRead, null);
      if (count === 0) break;
      bytesRead += count;
    }
    // Editors on Windows may start a file with a byte-order mark, which JSON.parse refuses.
    return { kind: 'read', text: buffer.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, ''), bytesRead };
  } finally {
    await handle.close();
  }
}
