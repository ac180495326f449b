import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The absolute path of the `skillopt-sleep` bin of the `@skillopt/sleep` this package depends on,
 * read from that package's manifest: the tools run exactly the engine installed with the plugin,
 * never one found on the PATH.
 */
export function sleepBinPath(): string {
  const manifestPath = createRequire(import.meta.url).resolve('@skillopt/sleep/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  return path.resolve(path.dirname(manifestPath), manifest.bin['skillopt-sleep'] as string);
}
