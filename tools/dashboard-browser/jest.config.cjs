// The dashboard in a real browser: one test file at a time (a browser, the dashboard server and a
// training share the machine), with room for a training that runs while the page watches it.
const base = require('../../jest.base.cjs')(__dirname);

module.exports = { ...base, maxWorkers: 1, testTimeout: 180_000 };
