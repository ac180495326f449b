import { existsSync } from 'node:fs';
import path from 'node:path';

function repositoryRoot(): string {
  for (let folder = __dirname; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'pnpm-workspace.yaml'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no pnpm-workspace.yaml above ${__dirname}`);
  }
}

/** The shared fixtures folder: `$SKILLOPT_SHARED_DIR`, else `shared/` beside the repository (as CI copies it). */
export const SHARED_FIXTURES = path.join(process.env.SKILLOPT_SHARED_DIR ?? path.resolve(repositoryRoot(), '../shared'), 'fixtures');
