import { existsSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * The dashboard's page in the CLI's package: the CLI's build copies the built @skillopt/dashboard
 * (apps/dashboard/dist) into `dashboard/` beside `dist/` (scripts/copy-dashboard.mjs), so an
 * install from npm serves it with no build step and no network. `cliRoot` is the package's
 * directory (oclif's config.root).
 */
export function shippedDashboardFolder(cliRoot: string): string {
  const folder = path.join(cliRoot, 'dashboard');
  if (!existsSync(path.join(folder, 'index.html')))
    throw new SkillOptError({
      code: ERROR_CODES.packageInvalid,
      category: 'user',
      message: `the dashboard's page is not in this CLI (${path.join(folder, 'index.html')} is missing). In a checkout of the repository, build it with \`pnpm nx run @skillopt/cli:build\`; an installed @skillopt/cli ships it`,
    });
  return folder;
}
