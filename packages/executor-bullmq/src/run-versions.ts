import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_SPECIFICATION_VERSIONS } from '@skillopt/contract';
import type { PreparedRun } from '@skillopt/core';

/**
 * What must be the same on the trainer and a worker for a rollout to be the same work: the
 * version of the run's env and backend packages, the specification versions of its env and
 * target, and those this release of the contract defines. Each side computes it from its own
 * prepared run.
 */
export function runVersions(run: Pick<PreparedRun, 'environmentPackage' | 'backendPackages' | 'environment' | 'target'>): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const resolved of [run.environmentPackage, ...run.backendPackages.values()])
    versions[resolved.packageName ?? resolved.requestedName] = packageVersion(resolved.packageDirectory);
  versions['specification of the env'] = run.environment.specificationVersion;
  versions['specification of the target'] = (run.target.kind === 'chat' ? run.target.model : run.target.runner).specificationVersion;
  versions['specifications of the contract'] = JSON.stringify(SUPPORTED_SPECIFICATION_VERSIONS);
  return versions;
}

function packageVersion(packageDirectory: string): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unversioned';
  } catch {
    return 'unversioned';
  }
}
