import { createBackend } from '@skillopt/backends-sim';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { realTasksConfig } from './helpers';

// The simulated model writes each task's script from the workbook answers in its references, so
// the suite's rollouts run real scripts in the sandbox on real tasks.
const config = realTasksConfig({ train: ['39180', '10452'], val: ['38985'], test: ['50811'] }, { mode: 'single' });

describeEnvironmentConformance({
  name: '@skillopt/env-spreadsheetbench (real tasks, the simulated model)',
  createEnvironment: () => createEnvironment(config),
  target: (items) => {
    const backend = createBackend({ seed: 1, noise: 0 });
    backend.simulator.receiveTaskItems(items);
    return { kind: 'chat', model: backend.createChatModel({ role: 'target' }) };
  },
  sampleSize: 3,
  testTimeoutMs: 120_000,
});
