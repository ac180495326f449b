// A Jest reporter that writes a project's totals and failures to <rootDir>/test-results/jest.json,
// creating the folder (Jest's own --outputFile does not). `pnpm check` sums these files; Nx
// declares the folder as the test target's output so a cache hit restores it.
const fs = require('node:fs');
const path = require('node:path');

class ResultsFileReporter {
  constructor(globalConfig) {
    this.rootDirectory = globalConfig.rootDir;
  }

  onRunComplete(_testContexts, results) {
    const failedTests = [];
    const suitesThatDidNotLoad = [];
    for (const suite of results.testResults) {
      const file = path.relative(this.rootDirectory, suite.testFilePath);
      for (const test of suite.testResults) if (test.status === 'failed') failedTests.push(`${file}: ${test.fullName}`);
      if (suite.testExecError) suitesThatDidNotLoad.push(`${file}: ${String(suite.testExecError.message).split('\n').find(Boolean) ?? ''}`);
    }
    const summary = {
      numPassedTests: results.numPassedTests,
      numFailedTests: results.numFailedTests,
      numPendingTests: results.numPendingTests,
      failedTests,
      suitesThatDidNotLoad,
    };
    const directory = path.join(this.rootDirectory, 'test-results');
    fs.mkdirSync(directory, { recursive: true });
    const temporaryFile = path.join(directory, `.jest.json.${process.pid}`);
    fs.writeFileSync(temporaryFile, JSON.stringify(summary, null, 2));
    fs.renameSync(temporaryFile, path.join(directory, 'jest.json'));
  }
}

module.exports = ResultsFileReporter;
