import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceHarnessAgentTarget } from '@skillopt/backends-kit/testing';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createTaskFileAnswerer } from '@skillopt/env-kit/testing';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-livemath-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

describeEnvironmentConformance({
  name: '@skillopt/env-livemath (fixture split, shuffled choices)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 6,
});

describeEnvironmentConformance({
  name: '@skillopt/env-livemath (fixture split, stored order, theorem and sketch shown)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, shuffle_choices: false, use_theorem: true, use_sketch: true }),
  sampleSize: 4,
});

describeEnvironmentConformance({
  name: '@skillopt/env-livemath (fixture split, shuffled choices, the reference harness)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  targetKind: 'agent',
  target: (items) => referenceHarnessAgentTarget(harnessDirectory, createTaskFileAnswerer(items)),
  sampleSize: 4,
});
