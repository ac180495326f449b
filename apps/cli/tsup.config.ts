import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The demo `skillopt demo` trains, copied from the repository into the package (dist/demo) so it
 * ships in the tarball: the repository's configs/ and datasets/ stay its one source. The relative
 * layout is kept, so the config's `_base_` and `split_dir` resolve unchanged.
 */
const DEMO_ASSETS = ['configs/_base_/default.yaml', 'configs/demo/default.yaml', 'datasets/demo'];

async function copyDemoAssets(): Promise<void> {
  const demoDirectory = path.join(repositoryRoot, 'apps', 'cli', 'dist', 'demo');
  await rm(demoDirectory, { recursive: true, force: true });
  for (const asset of DEMO_ASSETS) await cp(path.join(repositoryRoot, asset), path.join(demoDirectory, asset), { recursive: true });
}

// One file per command: oclif discovers commands by file in dist/commands. The fast path of
// bin/run.js is an entry of its own, so answering --help loads nothing of the commands.
export default defineConfig({
  entry: ['src/index.ts', 'src/fast-path.ts', 'src/commands/**/*.ts', '!src/**/*.test.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  onSuccess: copyDemoAssets,
});
