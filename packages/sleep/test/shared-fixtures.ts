import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root: the nearest folder above this one that holds pnpm-workspace.yaml. */
function repositoryRoot(): string {
  let folder = __dirname;
  while (!existsSync(path.join(folder, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`no pnpm-workspace.yaml above ${__dirname}`);
    folder = parent;
  }
  return folder;
}

/** The shared fixtures folder, beside the repository (or where SKILLOPT_SHARED_DIR says). */
export const SHARED_DIR = process.env.SKILLOPT_SHARED_DIR ?? path.resolve(repositoryRoot(), '../shared');

/** The fixtures inside it. */
export const SHARED_FIXTURES = path.join(SHARED_DIR, 'fixtures');
