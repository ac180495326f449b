import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceHarnessRunner, referenceHarnessTranscript } from '@skillopt/backends-kit/testing';
import type { Target, TaskItem } from '@skillopt/contract';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createTaskFileAnswerer } from '@skillopt/env-kit/testing';
import { createEnvironment, type OfficeQaTaskItem } from '../src/index';
import { FIXTURE_CONFIG } from './helpers';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-officeqa-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

/** The reference runner of backends-kit on its fake harness, answering from the task.md it finds in its workspace. */
function referenceHarnessTarget(items: readonly TaskItem[]): Target {
  const answer = createTaskFileAnswerer(items);
  return {
    kind: 'agent',
    runner: createReferenceHarnessRunner({
      directory: harnessDirectory,
      scenario: (request) => ({ transcript: referenceHarnessTranscript(answer(request.workspace)) }),
    }),
  };
}

describeEnvironmentConformance({
  name: '@skillopt/env-officeqa (fixture split)',
  createEnvironment: () => createEnvironment(FIXTURE_CONFIG),
  sampleSize: 12,
});

describeEnvironmentConformance({
  name: '@skillopt/env-officeqa (fixture split, the reference harness)',
  createEnvironment: () => createEnvironment(FIXTURE_CONFIG),
  targetKind: 'agent',
  target: referenceHarnessTarget,
  agentWorkspaceFiles: (item) => (item as OfficeQaTaskItem).files.map((name) => `documents/${name}`),
  sampleSize: 4,
});
