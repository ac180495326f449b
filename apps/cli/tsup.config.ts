import { defineConfig } from 'tsup';

// One file per command, hook and help class: oclif discovers commands by file in dist/commands and
// loads hooks and the help class by the paths package.json names. The fast path of bin/run.js is an entry of its own, so
// answering --help loads nothing of the commands.
export default defineConfig({
  entry: ['src/index.ts', 'src/fast-path.ts', 'src/commands/**/*.ts', 'src/hooks/*.ts', 'src/help/*.ts', '!src/**/*.test.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
