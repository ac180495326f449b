import { verificationResults } from '../src/sources/devin/verification-results.js';

describe('the test and build results an agent message reports', () => {
  it('reads the shared sample’s final message as the tests passed and the build succeeded', () => {
    const message = 'Applied the fix and ran the suite: rtk mvn test -Dtest=OrderServiceTest -> BUILD SUCCESS, 142 passed, 0 failed.';
    expect(verificationResults(message)).toEqual([
      { kind: 'verification', verifier: 'tests', passed: true, evidence: '142 passed, 0 failed' },
      { kind: 'verification', verifier: 'build', passed: true, evidence: 'BUILD SUCCESS' },
    ]);
  });

  it('reads a Surefire summary by its failures and errors', () => {
    expect(verificationResults('Tests run: 12, Failures: 0, Errors: 0, Skipped: 1')).toEqual([
      { kind: 'verification', verifier: 'tests', passed: true, evidence: 'Tests run: 12, Failures: 0, Errors: 0' },
    ]);
    expect(verificationResults('Tests run: 12, Failures: 0, Errors: 2')[0]).toMatchObject({ verifier: 'tests', passed: false });
    expect(verificationResults('[ERROR] Tests run: 5, Failures: 1\n[INFO] BUILD FAILURE')).toEqual([
      { kind: 'verification', verifier: 'tests', passed: false, evidence: 'Tests run: 5, Failures: 1' },
      { kind: 'verification', verifier: 'build', passed: false, evidence: 'BUILD FAILURE' },
    ]);
  });

  it('reads pytest and Jest counts, a failure winning over passes', () => {
    expect(verificationResults('===== 2 failed, 10 passed in 1.20s =====')).toEqual([
      { kind: 'verification', verifier: 'tests', passed: false, evidence: '2 failed' },
    ]);
    expect(verificationResults('Tests:       6 passed, 6 total')).toEqual([{ kind: 'verification', verifier: 'tests', passed: true, evidence: '6 passed' }]);
    expect(verificationResults('FAILED tests/test_orders.py::test_persist - AssertionError')).toEqual([
      { kind: 'verification', verifier: 'tests', passed: false, evidence: 'FAILED' },
    ]);
    expect(verificationResults('All 14 tests passed.')).toEqual([{ kind: 'verification', verifier: 'tests', passed: true, evidence: '14 tests passed' }]);
    expect(verificationResults('Done: all tests pass now.')).toEqual([{ kind: 'verification', verifier: 'tests', passed: true, evidence: 'all tests pass' }]);
  });

  it('reads Gradle’s verdicts as the build’s, not as a test failure', () => {
    expect(verificationResults('BUILD SUCCESSFUL in 3s')).toEqual([{ kind: 'verification', verifier: 'build', passed: true, evidence: 'BUILD SUCCESSFUL' }]);
    expect(verificationResults('BUILD FAILED in 2s')).toEqual([{ kind: 'verification', verifier: 'build', passed: false, evidence: 'BUILD FAILED' }]);
  });

  it('finds nothing in prose that reports no run', () => {
    expect(verificationResults('I will switch to orElseThrow so the missing-row case is handled; then the tests should pass.')).toEqual([]);
    expect(verificationResults('0 passed')).toEqual([]);
    expect(verificationResults('The build failed earlier because of a typo, which I fixed.')).toEqual([]);
  });

  it('keeps as evidence only the runner’s words, never the output around them', () => {
    const [signal] = verificationResults('FAILED tests/test_login.py::test_token - token=hunter2-secret-value');
    expect(signal?.evidence).toBe('FAILED');
  });
});
