// The CLI loads env and backend packages with a computed import(), which must stay a real dynamic
// import under Jest's CommonJS transform (docs/toolchain.md, jest's row): swc keeps it, and the test
// script runs Node with --experimental-vm-modules.
const base = require('../../jest.base.cjs')(__dirname);
const [pattern, [transformer, options]] = Object.entries(base.transform).find(([key]) => key.includes('tsx'));
module.exports = {
  ...base,
  transform: { ...base.transform, [pattern]: [transformer, { ...options, module: { ...options.module, ignoreDynamic: true } }] },
  // Nearly every test starts the CLI as a process, many several times or beside workers and
  // servers: up to 47 s a test at a load of 13 on two cores, which a loaded machine stretches
  // further. The limit is there to catch a hang, not to time the runs.
  testTimeout: 300_000,
};
