import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceHarnessRunner, referenceHarnessTranscript, type FakeHarnessInvocation } from '@skillopt/backends-kit/testing';
import { ERROR_CODES, ProviderError, type RolloutResult, type ScoredRollout } from '@skillopt/contract';
import { AGENT_TASK_FILE } from '@skillopt/env-kit';
import { createScriptedAgentRunner, createTaskFileAnswerer, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { buildUserPrompt, createEnvironment, type OfficeQaTaskItem } from '../src/index';
import { FIXTURE_CONFIG, FIXTURE_DOCS_DIR, temporaryDirectory, writeJson, writeText } from './helpers';

const SKILL = '# My skill\n\nRule 7: check the unit.\n';
const environment = createEnvironment(FIXTURE_CONFIG);
const contexts = createWorkDirectoryRolloutContextsForTests();
afterEach(() => contexts.removeAll());
const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-officeqa-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

async function allItems(): Promise<OfficeQaTaskItem[]> {
  return [...(await environment.loadSplit('train')), ...(await environment.loadSplit('val')), ...(await environment.loadSplit('test'))] as OfficeQaTaskItem[];
}

describe('a rollout with an agent target', () => {
  it("gives the harness a workspace of task.md and copies of that item's documents only: no corpus, no split folder", async () => {
    const items = await allItems();
    const answer = createTaskFileAnswerer(items);
    const twoDocuments = items.find((item) => item.id === 'fixture-test-01')!;
    for (const item of [items[0]!, twoDocuments]) {
      const invocationFile = path.join(harnessDirectory, `${item.id}.json`);
      const runner = createReferenceHarnessRunner({
        directory: harnessDirectory,
        scenario: (request) => ({ transcript: referenceHarnessTranscript(answer(request.workspace)), recordInvocationTo: invocationFile }),
      });
      const result = scored(await environment.rollout(item, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item.id })));
      expect(result).toMatchObject({ hard: 1, prediction: item.references[0], details: { targetKind: 'agent', files: item.files } });
      const invocation = JSON.parse(readFileSync(invocationFile, 'utf8')) as FakeHarnessInvocation;
      expect(invocation.files).toEqual(['AGENTS.md', ...item.files.map((name) => `documents/${name}`).sort(), 'task.md']);
    }
    expect(twoDocuments.files).toHaveLength(2);
  });

  it('hands the runner the user prompt as task.md, the documents as they are in the corpus, the skill and exec_timeout', async () => {
    const [item] = (await environment.loadSplit('train')) as OfficeQaTaskItem[];
    const runner = createScriptedAgentRunner({ reply: () => `Found it.\n<answer>${item!.references[0]}</answer>` });
    await environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id }));
    expect(runner.calls).toHaveLength(1);
    const request = runner.calls[0]!;
    expect(request.files).toEqual([
      { path: AGENT_TASK_FILE, content: buildUserPrompt(item!.question, item!.files, item!.sourceDocs) },
      ...item!.files.map((name) => ({ path: `documents/${name}`, content: readFileSync(path.join(FIXTURE_DOCS_DIR, 'transformed', name), 'utf8') })),
    ]);
    expect(request).toMatchObject({ skill: SKILL, timeoutMs: 600_000, purpose: 'rollout' });
    expect(request.prompt).toContain('in the documents folder beside it');
  });

  it('refuses a document that links out of its folder as a data error, before the agent runs', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeText(path.join(dir, 'outside', 'secret.txt'), 'not part of the corpus');
      await mkdir(path.join(dir, 'docs'));
      await symlink(path.join(dir, 'outside', 'secret.txt'), path.join(dir, 'docs', 'doc.txt'));
      await writeJson(path.join(dir, 'split', 'train', 'items.json'), [{ id: 'linked', question: 'Q?', answer: 'A', source_files: ['doc.txt'] }]);
      for (const split of ['val', 'test']) await writeJson(path.join(dir, 'split', split, 'items.json'), []);
      const linked = createEnvironment({ split_dir: path.join(dir, 'split'), data_dirs: [path.join(dir, 'docs')] });
      const [item] = await linked.loadSplit('train');
      const runner = createScriptedAgentRunner({ reply: () => '<answer>A</answer>' });
      await expect(linked.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id }))).rejects.toMatchObject({
        code: ERROR_CODES.dataInvalid,
        message: expect.stringContaining('officeqa item linked: doc.txt: refused, it is a link to a file outside the document folder'),
      });
      expect(runner.calls).toHaveLength(0);
    } finally {
      await cleanup();
    }
  });

  it('passes a crashed harness on as the error it is, never a score', async () => {
    const [item] = await environment.loadSplit('train');
    const crash = new ProviderError({ provider: 'test-double', code: ERROR_CODES.processCrashed, message: 'the harness exited with code 1', retryable: true });
    const runner = createScriptedAgentRunner({
      reply: () => {
        throw crash;
      },
    });
    await expect(environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id }))).rejects.toBe(crash);
  });
});
