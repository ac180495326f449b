// The serialised test target: every test that starts a real agent CLI. One test file at a time
// (maxWorkers 1, and `jest --runInBand`), so two CLIs never compete for the machine's cores;
// `pnpm check` runs it after the Nx tests, never beside them. The CLIs' own time limit is in the
// tests (a hard kill of the process group); Jest's is above it.
const base = require('../../jest.base.cjs')(__dirname);

module.exports = { ...base, maxWorkers: 1, testTimeout: 240_000 };
