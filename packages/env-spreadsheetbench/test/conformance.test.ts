import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createBackend } from '@skillopt/backends-sim';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createScriptedAgentRunner } from '@skillopt/env-kit/testing';
import { createEnvironment, type SpreadsheetTaskItem } from '../src/index';
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
  testTimeoutMs: 300_000,
});

// As an agent target: a runner that, as a harness would, places the request's files, then saves
// each input unchanged as its output (a wrong answer, deterministically).
describeEnvironmentConformance({
  name: '@skillopt/env-spreadsheetbench (real tasks, an agent target)',
  createEnvironment: () => createEnvironment(config),
  target: {
    kind: 'agent',
    runner: createScriptedAgentRunner({
      reply: (request) => {
        for (const file of request.files ?? []) {
          const target = path.join(request.workspace, file.path);
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, file.content);
          if (file.path.startsWith('inputs/')) writeFileSync(path.join(request.workspace, 'outputs', path.basename(file.path)), file.content);
        }
        return 'I saved every workbook as it was.';
      },
    }),
  },
  agentAnswer: 'workspace-files',
  agentWorkspaceFiles: (item) => (item as SpreadsheetTaskItem).cases.map((testCase) => `inputs/${testCase.number}.xlsx`),
  sampleSize: 3,
  testTimeoutMs: 300_000,
});
