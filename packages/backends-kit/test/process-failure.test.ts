import { ERROR_CODES } from '@skillopt/contract';
import { providerErrorFromProcessResult, runProcess, type ProcessResult } from '../src/index';

const finished: ProcessResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: '{"type":"done"}\n',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  durationMs: 1200,
};
const context = { provider: 'codex', command: 'codex exec' };

describe('providerErrorFromProcessResult', () => {
  it('gives nothing for a run that finished', () => {
    expect(providerErrorFromProcessResult(finished, context)).toBeUndefined();
    expect(providerErrorFromProcessResult({ ...finished, exitCode: 1 }, { ...context, successExitCodes: [0, 1] })).toBeUndefined();
  });

  it('turns a timeout into a retryable process-timeout error', () => {
    const error = providerErrorFromProcessResult({ ...finished, exitCode: null, signal: 'SIGKILL', timedOut: true }, context);
    expect(error).toMatchObject({ code: ERROR_CODES.processTimeout, retryable: true, provider: 'codex' });
  });

  it('turns a crash into a retryable process-crashed error quoting the end of stderr', async () => {
    const result = await runProcess({ command: process.execPath, args: ['-e', 'console.error("x".repeat(2000) + "panic: out of memory"); process.exit(70)'] });
    const error = providerErrorFromProcessResult(result, context);
    expect(error).toMatchObject({ code: ERROR_CODES.processCrashed, retryable: true, details: expect.objectContaining({ exitCode: 70 }) });
    expect(error?.message).toContain('exited with code 70');
    expect(error?.message).toMatch(/panic: out of memory$/);
    expect(error?.message.length).toBeLessThan(600);
  });

  it('names the signal that killed a process', () => {
    expect(providerErrorFromProcessResult({ ...finished, exitCode: null, signal: 'SIGSEGV' }, context)?.message).toBe('codex exec was killed by SIGSEGV');
  });
});
