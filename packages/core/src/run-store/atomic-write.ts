import { writeFileAtomic } from '@skillopt/runtime-kit';
import { redactArtifactSecrets } from './secret-guard.js';

// The atomic write itself is runtime-kit's (backends and envs write files that must never be half-written too).
export {
  ATOMIC_TEMPORARY_SUFFIX,
  type AtomicWriteData,
  type AtomicWriteOptions,
  isAtomicTemporaryFileName,
  syncDirectory,
  writeFileAtomic,
} from '@skillopt/runtime-kit';

/**
 * Writes `value` as 2-space JSON with a trailing newline, atomically (see writeFileAtomic), with
 * secrets cut out (see secret-guard.ts): every JSON artifact of a run passes here, so no caller
 * can forget the guard.
 */
export async function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
  // Serialise first: a value that cannot be serialised must fail before the file is touched.
  const text = JSON.stringify(redactArtifactSecrets(value), null, 2);
  if (text === undefined) throw new TypeError(`Cannot write ${filePath}: the value is not JSON (got ${typeof value})`);
  await writeFileAtomic(filePath, `${text}\n`);
}
