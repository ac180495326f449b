// Nearly every test runs Python with openpyxl (and pandas), most of them in a sandbox, for seconds
// to minutes, which a loaded machine slows many times over: the limit is there to catch a hang, not
// to time the runs.
const base = require('../../jest.base.cjs')(__dirname);

module.exports = { ...base, testTimeout: 300_000 };
