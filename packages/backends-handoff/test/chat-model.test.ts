import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnswerPendingError, type GenerateRequest } from '@skillopt/contract';
import { createBackend, type HandoffIndex } from '../src/index';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'handoff-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const model = (role: 'target' | 'optimizer' = 'target') => createBackend({ directory: 'handoff' }, { workingDirectory: root }).createChatModel({ role });
const folder = () => path.join(root, 'handoff');
const readIndex = (): HandoffIndex => JSON.parse(readFileSync(path.join(folder(), 'index.json'), 'utf8')) as HandoffIndex;
const answer = (id: string, text: string) => {
  mkdirSync(path.join(folder(), 'answers'), { recursive: true });
  writeFileSync(path.join(folder(), 'answers', `${id}.md`), text);
};

function request(question: string, overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    messages: [
      { role: 'system', content: '# Skill\n- Answer with digits.' },
      { role: 'user', content: question },
    ],
    purpose: 'rollout',
    ...overrides,
  };
}

async function pendingOf(call: Promise<unknown>): Promise<AnswerPendingError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!AnswerPendingError.isInstance(error)) throw new Error(`expected answer-pending, got ${String(error)}`);
  return error;
}

describe('the handoff chat model', () => {
  it('writes a request it has no answer for (its prompt, the request, where its answer goes) and stops with answer-pending', async () => {
    const pending = await pendingOf(model().generate(request('How many legs does a spider have?', { requestKey: 'rollout/abc/q1/0/0' })));
    expect(pending.code).toBe('answer-pending');
    expect(pending.directory).toBe(folder());
    const [id] = pending.requestIds;
    const index = readIndex();
    expect(index.format).toBe('skillopt.handoff.v1');
    expect(index.pending).toEqual([
      {
        id,
        requestKey: 'rollout/abc/q1/0/0',
        role: 'target',
        purpose: 'rollout',
        answerFormat: { type: 'text' },
        promptFile: `requests/${id}.md`,
        requestFile: `requests/${id}.json`,
        answerFile: `answers/${id}.md`,
      },
    ]);
    const prompt = readFileSync(path.join(folder(), `requests/${id}.md`), 'utf8');
    expect(prompt).toContain(`write only the answer to \`answers/${id}.md\``);
    expect(prompt).toContain('## user\n\nHow many legs does a spider have?');
    const stored = JSON.parse(readFileSync(path.join(folder(), `requests/${id}.json`), 'utf8')) as GenerateRequest;
    expect(stored.messages).toEqual(
      request('')
        .messages.slice(0, 1)
        .concat([{ role: 'user', content: 'How many legs does a spider have?' }]),
    );
  });

  it('answers from the answer file, and takes the request off the index', async () => {
    const pending = await pendingOf(model().generate(request('Q?', { requestKey: 'k1' })));
    answer(pending.requestIds[0] as string, '<answer>8</answer>\n');
    const result = await model().generate(request('Q?', { requestKey: 'k1' }));
    expect(result.text).toBe('<answer>8</answer>');
    expect(result.usage.estimated).toBe(true);
    expect(readIndex().pending).toEqual([]);
  });

  it('keys an answer by the request key, so a change of wording elsewhere in the prompt finds it; two samples are two requests', async () => {
    const first = await pendingOf(model().generate(request('Q?', { requestKey: 'rollout/abc/q1/0/0' })));
    answer(first.requestIds[0] as string, 'eight');
    const reworded = await model().generate(request('Q, reworded?', { requestKey: 'rollout/abc/q1/0/0' }));
    expect(reworded.text).toBe('eight');
    const secondSample = await pendingOf(model().generate(request('Q?', { requestKey: 'rollout/abc/q1/1/0' })));
    expect(secondSample.requestIds).not.toEqual(first.requestIds);
  });

  it('reports an answer that is not the JSON asked for, naming its file, and leaves the request waiting', async () => {
    const json = request('Rank these.', { purpose: 'rank', responseFormat: { type: 'json' } });
    const first = await pendingOf(model('optimizer').generate(json));
    const id = first.requestIds[0] as string;
    answer(id, 'I would pick the first one.');
    const again = await pendingOf(model('optimizer').generate(json));
    expect(again.requestIds).toEqual([id]);
    expect(again.problems).toEqual([expect.stringMatching(new RegExp(`^answers/${id}\\.md: it is not valid JSON`))]);
    expect(readIndex().pending).toEqual([expect.objectContaining({ id, problem: expect.stringContaining('not valid JSON'), answerFormat: { type: 'json' } })]);
    answer(id, '{"selected": [1]}');
    expect((await model('optimizer').generate(json)).text).toBe('{"selected": [1]}');
  });

  it('lists every request of a batch asked at once, none lost to another', async () => {
    const chat = model();
    const stops = await Promise.all(
      Array.from({ length: 12 }, (_unused, index) => pendingOf(chat.generate(request(`Q${index}?`, { requestKey: `k${index}` })))),
    );
    expect(new Set(readIndex().pending.map((entry) => entry.id))).toEqual(new Set(stops.flatMap((stop) => stop.requestIds)));
    expect(readIndex().pending).toHaveLength(12);
  });

  it('lists the requests of every backend this process creates on the folder in one index (a Sleep night makes one per skill)', async () => {
    const first = await pendingOf(model().generate(request('Q1?', { requestKey: 'skill-a/k1' })));
    const second = await pendingOf(model().generate(request('Q2?', { requestKey: 'skill-b/k1' })));
    expect(readIndex().pending.map((entry) => entry.id)).toEqual([...first.requestIds, ...second.requestIds]);
  });

  it('cuts secrets out of what it writes', async () => {
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const pending = await pendingOf(model().generate(request(`My key is ${secret}; what now?`, { requestKey: 'k-secret' })));
    const id = pending.requestIds[0] as string;
    expect(readFileSync(path.join(folder(), `requests/${id}.md`), 'utf8')).not.toContain(secret);
    expect(readFileSync(path.join(folder(), `requests/${id}.json`), 'utf8')).not.toContain(secret);
  });
});
