import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceHarnessAgentTarget } from '@skillopt/backends-kit/testing';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createTaskFileAnswerer } from '@skillopt/env-kit/testing';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-docvqa-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

describeEnvironmentConformance({
  name: '@skillopt/env-docvqa (fixture split)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 12,
});

describeEnvironmentConformance({
  name: '@skillopt/env-docvqa (fixture split, the reference harness)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  targetKind: 'agent',
  target: (items) => referenceHarnessAgentTarget(harnessDirectory, createTaskFileAnswerer(items)),
  // The fixture's pages are PNG files; the agent finds each as page.png beside task.md.
  agentWorkspaceFiles: () => ['page.png'],
  sampleSize: 4,
});
