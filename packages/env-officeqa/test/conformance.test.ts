import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceHarnessAgentTarget } from '@skillopt/backends-kit/testing';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createTaskFileAnswerer } from '@skillopt/env-kit/testing';
import { createEnvironment, type OfficeQaTaskItem } from '../src/index';
import { FIXTURE_CONFIG } from './helpers';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-officeqa-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

describeEnvironmentConformance({
  name: '@skillopt/env-officeqa (fixture split)',
  createEnvironment: () => createEnvironment(FIXTURE_CONFIG),
  sampleSize: 12,
});

describeEnvironmentConformance({
  name: '@skillopt/env-officeqa (fixture split, the reference harness)',
  createEnvironment: () => createEnvironment(FIXTURE_CONFIG),
  targetKind: 'agent',
  target: (items) => referenceHarnessAgentTarget(harnessDirectory, createTaskFileAnswerer(items)),
  agentWorkspaceFiles: (item) => (item as OfficeQaTaskItem).files.map((name) => `documents/${name}`),
  sampleSize: 4,
});
