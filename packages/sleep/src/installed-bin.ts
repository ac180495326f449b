import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `skillopt-sleep` bin of the installation this code runs from, as an absolute path: what a
 * scheduled night starts, so that it depends neither on PATH nor on a working directory. This
 * file sits one folder below the package root, in src/ and in dist/ alike.
 */
export function installedSleepBin(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'skillopt-sleep.js');
}
