import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder @skillopt/sleep is installed in; this file sits one folder below it, in src/ and in dist/ alike. */
export function sleepPackageRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
}

/** The version of this installation of @skillopt/sleep, from its package.json. */
export function sleepPackageVersion(): string {
  return (JSON.parse(readFileSync(path.join(sleepPackageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
