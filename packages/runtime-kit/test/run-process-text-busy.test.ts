import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError } from '@skillopt/contract';
import { runProcess } from '../src/index';

// A script still open for writing cannot be executed (ETXTBSY). That is what a just-written
// script looks like while a child forked by another spawn still holds its descriptor.
describe('runProcess and an executable that is busy being written', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'run-process-text-busy-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function scriptHeldOpen(): { script: string; release: () => void } {
    const script = path.join(directory, 'answer.sh');
    const descriptor = openSync(script, 'w', 0o755);
    writeSync(descriptor, '#!/bin/sh\necho ready\n');
    let open = true;
    return {
      script,
      release: () => {
        if (open) closeSync(descriptor);
        open = false;
      },
    };
  }

  it('starts it once the writer lets go, trying again for a moment instead of failing', async () => {
    const { script, release } = scriptHeldOpen();
    setTimeout(release, 30);
    try {
      const result = await runProcess({ command: script, timeoutMs: 10_000 });
      expect(result.stdout).toBe('ready\n');
      expect(result.exitCode).toBe(0);
    } finally {
      release();
    }
  });

  it('reports the busy executable as a start failure when it stays busy', async () => {
    const { script, release } = scriptHeldOpen();
    try {
      const failure = await runProcess({ command: script, timeoutMs: 10_000 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderError);
      expect(failure).toMatchObject({ code: 'process-crashed', retryable: false, details: { errno: 'ETXTBSY' } });
    } finally {
      release();
    }
  });
});
