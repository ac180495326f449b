#!/usr/bin/env node
// The CLI's build step after tsup: copies the built dashboard page (@skillopt/dashboard's
// `vite build`, apps/dashboard/dist) into this package's `dashboard/`, which `files` ships, so
// `skillopt dashboard` serves it from an npm install with no build step and no network. Nx builds
// the dashboard first (it is a devDependency); a build run any other way without it fails here.
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.resolve(cliRoot, '..', 'dashboard', 'dist');
const shipped = path.join(cliRoot, 'dashboard');

if (!existsSync(path.join(built, 'index.html'))) {
  console.error(
    `The dashboard's page is not built: ${path.join(built, 'index.html')} is missing. Build the CLI with Nx, which builds @skillopt/dashboard first (pnpm nx run @skillopt/cli:build), or build the page itself with pnpm nx run @skillopt/dashboard:build.`,
  );
  process.exit(1);
}
rmSync(shipped, { recursive: true, force: true });
cpSync(built, shipped, { recursive: true });
