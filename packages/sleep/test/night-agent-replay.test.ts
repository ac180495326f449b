import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RolloutContext, TaskItem } from '@skillopt/contract';
import { createScriptedAgentRunner } from '@skillopt/env-kit/testing';
import { createNightEnvironment } from '../src/night/night-environment.js';
import { writeTaskFile } from '../src/tasks/task-file.js';
import { taskRecord } from './task-records.js';

// A night's rollout on an agent target: the harness gets the document with the learned rules as
// its skill and the request in task.md, the run is a `replay`, and its final text is judged.

const DOCUMENT = '# Assistant\n\nAnswer briefly.\n';
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'night-agent-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function nightEnvironment() {
  const tasksFile = path.join(folder, 'tasks.json');
  const documentFile = path.join(folder, 'SKILL.md');
  await writeFile(documentFile, DOCUMENT);
  await writeTaskFile(tasksFile, {
    project: '/p',
    source: 'test',
    sessionCount: 0,
    targetSkillPath: '',
    reviewed: true,
    tasks: [
      taskRecord({ id: 'exact', intent: 'arXiv id of the Adam paper?', referenceKind: 'exact', reference: 'arXiv:1412.6980', split: 'val' }),
      taskRecord({
        id: 'tool',
        intent: 'find the flaky test',
        referenceKind: 'rule',
        judge: { kind: 'rule', checks: [{ op: 'tool_called', arg: 'Grep' }] },
        split: 'val',
      }),
    ],
  });
  return createNightEnvironment({ tasks_file: tasksFile, document_file: documentFile });
}

function agentContext(runner: ReturnType<typeof createScriptedAgentRunner>, skill: string): RolloutContext {
  let workspace: string | undefined;
  return {
    skill,
    target: { kind: 'agent', runner },
    signal: new AbortController().signal,
    sampleIndex: 0,
    workDirectory: async () => {
      workspace ??= await mkdtemp(path.join(folder, 'workspace-'));
      return workspace;
    },
  };
}

describe('a night replayed through an agent harness', () => {
  test('installs the document with the learned rules as the skill, puts the request in task.md and judges the final text', async () => {
    const environment = await nightEnvironment();
    expect(environment.targetKinds).toEqual(['chat', 'agent']);
    const [item] = (await environment.loadSplit('val')) as TaskItem[];
    const runner = createScriptedAgentRunner({ reply: () => 'arXiv:1412.6980' });
    const result = await environment.rollout(item as TaskItem, agentContext(runner, '- Give arXiv ids with their arXiv: prefix.'));
    expect(result).toMatchObject({ status: 'scored', hard: 1, prediction: 'arXiv:1412.6980', details: { targetKind: 'agent', judgedBy: 'exact' } });
    const request = runner.calls[0];
    expect(request?.purpose).toBe('replay');
    expect(request?.skill).toContain('Answer briefly.');
    expect(request?.skill).toContain('- Give arXiv ids with their arXiv: prefix.');
    expect(request?.files).toEqual([{ path: 'task.md', content: expect.stringContaining('arXiv id of the Adam paper?') }]);
    expect(request?.prompt).toContain('`task.md`');
    expect(request?.workspaceAccess).toBeUndefined();
  });

  test('leaves a task with a tool check out of the scores, since a harness does not report its tools to the night', async () => {
    const environment = await nightEnvironment();
    const item = (await environment.loadSplit('val')).find((task) => task.id === 'tool') as TaskItem;
    const result = await environment.rollout(item, agentContext(createScriptedAgentRunner({ reply: () => 'I grepped for it.' }), ''));
    expect(result).toMatchObject({ status: 'errored', error: { code: 'task-unjudged', retryable: false } });
  });
});
