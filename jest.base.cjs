// One Jest configuration for every project: tests are TypeScript compiled by swc to CommonJS.
// Each project's test script adds `--json --outputFile=test-results/jest.json`; the root
// check reads those files to print the workspace's pass/fail totals (Nx restores the folder on a cache hit).
module.exports = (projectDirectory) => ({
  rootDir: projectDirectory,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  // Sources import siblings as `./name.js` (valid ESM once built); in Jest they are `./name.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  testTimeout: 30_000,
});
