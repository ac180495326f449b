import type { OutcomeSignal } from '../../harvest/session-record.js';

/**
 * The test and build results an agent reported in one message, as verification signals. The
 * original turned these into an `outcomes.jsonl` the engine never read (upstream-sleep §9 item 9);
 * here they travel in the session's own record, where mining reads them.
 *
 * Only the summary forms of common runners are recognised (Maven's and Gradle's build verdicts,
 * Surefire's "Tests run:", pytest's and Jest's pass/fail counts), and only those fixed-form words
 * are kept as evidence, never the text around them, so no output of the run (which may carry
 * secrets) is copied.
 */
export type VerificationSignal = Extract<OutcomeSignal, { kind: 'verification' }>;

const BUILD_PASSED = /\bBUILD SUCCESS(?:FUL)?\b/;
const BUILD_FAILED = /\bBUILD FAIL(?:URE|ED)\b/;
// Maven's Surefire summary: "Tests run: 12, Failures: 0, Errors: 0, Skipped: 1".
const SUREFIRE_SUMMARY = /\bTests run:\s*(\d+),\s*Failures:\s*(\d+)(?:,\s*Errors:\s*(\d+))?/;
const PASSED_COUNT = /\b(\d+)\s+(?:tests?\s+)?passed\b/i;
const FAILED_COUNT = /\b(\d+)\s+(?:tests?\s+)?failed\b/i;
const ALL_PASSED = /\ball\s+(?:\d+\s+)?tests\s+(?:passed|pass)\b/i;
// pytest's per-test failure line and other runners' upper-case verdict; not "BUILD FAILED".
const FAILED_VERDICT = /(?<!BUILD )\bFAILED\b/;

function testsSignal(message: string): VerificationSignal | undefined {
  const surefire = SUREFIRE_SUMMARY.exec(message);
  if (surefire !== null) {
    const failures = Number(surefire[2]) + Number(surefire[3] ?? 0);
    return { kind: 'verification', verifier: 'tests', passed: failures === 0, evidence: surefire[0] };
  }
  const passed = PASSED_COUNT.exec(message);
  const failed = FAILED_COUNT.exec(message);
  if (failed !== null && Number(failed[1]) > 0) {
    return { kind: 'verification', verifier: 'tests', passed: false, evidence: failed[0] };
  }
  if (FAILED_VERDICT.test(message)) return { kind: 'verification', verifier: 'tests', passed: false, evidence: 'FAILED' };
  if (passed !== null && Number(passed[1]) > 0) {
    const evidence = failed === null ? passed[0] : `${passed[0]}, ${failed[0]}`;
    return { kind: 'verification', verifier: 'tests', passed: true, evidence };
  }
  const all = ALL_PASSED.exec(message);
  return all === null ? undefined : { kind: 'verification', verifier: 'tests', passed: true, evidence: all[0] };
}

function buildSignal(message: string): VerificationSignal | undefined {
  const failed = BUILD_FAILED.exec(message);
  if (failed !== null) return { kind: 'verification', verifier: 'build', passed: false, evidence: failed[0] };
  const passed = BUILD_PASSED.exec(message);
  return passed === null ? undefined : { kind: 'verification', verifier: 'build', passed: true, evidence: passed[0] };
}

/** The tests result, then the build result, that `message` reports; none when it reports neither. */
export function verificationResults(message: string): VerificationSignal[] {
  return [testsSignal(message), buildSignal(message)].filter((signal): signal is VerificationSignal => signal !== undefined);
}
