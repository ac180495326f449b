import { defineConfig } from 'tsup';

// One file per command: oclif discovers commands by file in dist/commands.
export default defineConfig({
  entry: ['src/index.ts', 'src/commands/**/*.ts', '!src/**/*.test.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
