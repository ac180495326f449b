// One Jest configuration for every project: tests are TypeScript compiled by swc to CommonJS.
// Each run also writes its totals to <project>/test-results/jest.json, which `pnpm check` sums.
const path = require('node:path');

module.exports = (projectDirectory) => ({
  rootDir: projectDirectory,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  // Sources import siblings as `./name.js` (valid ESM once built); in Jest they are `./name.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '\\.(md|py)$': path.join(__dirname, 'tools', 'jest', 'text-file-transform.cjs'),
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  testTimeout: 30_000,
  reporters: ['default', path.join(__dirname, 'tools', 'jest', 'results-file-reporter.cjs')],
});
