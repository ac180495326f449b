import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceHarnessAgentTarget } from '@skillopt/backends-kit/testing';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createTaskFileAnswerer } from '@skillopt/env-kit/testing';
import { createEnvironment } from '../src/index';
import { DEMO_SPLIT_DIR, FIXTURE_SPLIT_DIR } from './helpers';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-searchqa-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

describeEnvironmentConformance({
  name: '@skillopt/env-searchqa (fixture split)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 6,
});

describeEnvironmentConformance({
  name: '@skillopt/env-searchqa (demo split)',
  createEnvironment: () => createEnvironment({ split_dir: DEMO_SPLIT_DIR }),
  sampleSize: 12,
});

describeEnvironmentConformance({
  name: '@skillopt/env-searchqa (fixture split, the reference harness)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  targetKind: 'agent',
  target: (items) => referenceHarnessAgentTarget(harnessDirectory, createTaskFileAnswerer(items)),
  sampleSize: 4,
});
