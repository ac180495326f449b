import { defineConfig } from 'tsup';

// One file per command: oclif discovers commands by file in dist/commands. The fast path of
// bin/run.js is an entry of its own, so answering --help loads nothing of the commands.
export default defineConfig({
  entry: ['src/index.ts', 'src/fast-path.ts', 'src/commands/**/*.ts', '!src/**/*.test.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
