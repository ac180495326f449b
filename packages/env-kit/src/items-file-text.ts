import { type FileHandle, open } from 'node:fs/promises';
import { createDataInvalidError, isDataInvalidError } from './data-invalid-error.js';

/** The largest items file read by default: 256 MiB (`env.max_items_file_bytes`). */
export const DEFAULT_MAX_ITEMS_FILE_BYTES = 256 * 1024 * 1024;

/** How an items file may be read. */
export interface ItemsFileOptions {
  /** The largest file read, in bytes (default `DEFAULT_MAX_ITEMS_FILE_BYTES`): a larger one is an error before it is read. */
  maxBytes?: number | undefined;
}

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;
const LINE_FEED = 0x0a;

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return mebibytes >= 1 ? `${bytes} bytes (${mebibytes.toFixed(1)} MiB)` : `${bytes} bytes`;
}

/**
 * The text of a split or pool file, checked before any JSON is read: a file over `maxBytes` is
 * refused before its bytes are read (a mistaken multi-gigabyte file would otherwise take the
 * process's memory), and bytes that are not UTF-8 are an error naming the line, rather than being
 * turned into U+FFFD replacement characters that would change questions and references without a
 * word. A byte-order mark, which editors on Windows often write, is dropped.
 */
export async function readItemsFileText(file: string, options: ItemsFileOptions = {}): Promise<string> {
  const bytes = await readBoundedFile(file, options.maxBytes ?? DEFAULT_MAX_ITEMS_FILE_BYTES);
  const body = UTF8_BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte) ? bytes.subarray(UTF8_BYTE_ORDER_MARK.length) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const line = firstLineNotUtf8(body);
    throw createDataInvalidError(`${file} line ${line} is not valid UTF-8; save the file as UTF-8`, { file, line });
  }
}

async function readBoundedFile(file: string, maxBytes: number): Promise<Buffer> {
  const cannotRead = (error: unknown) => createDataInvalidError(`cannot read split file ${file}: ${(error as Error).message}`, { file }, error);
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw cannotRead(error);
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw createDataInvalidError(
        `${file} is ${describeBytes(size)}, over the limit of ${describeBytes(maxBytes)} for an items file; ` +
          'raise env.max_items_file_bytes to read it, or split the file',
        { file, bytes: size, maxBytes, key: 'env.max_items_file_bytes' },
      );
    return await handle.readFile();
  } catch (error) {
    throw isDataInvalidError(error) ? error : cannotRead(error);
  } finally {
    await handle.close();
  }
}

/** The 1-based number of the first line whose bytes do not decode as UTF-8 (a line feed is never part of a multi-byte character). */
function firstLineNotUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let line = 1;
  let start = 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(LINE_FEED, start);
    const lineEnd = end === -1 ? bytes.length : end;
    try {
      decoder.decode(bytes.subarray(start, lineEnd));
    } catch {
      return line;
    }
    if (end === -1) break;
    line += 1;
    start = end + 1;
  }
  return line;
}
