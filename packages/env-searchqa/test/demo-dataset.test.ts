import { SPLIT_NAMES } from '@skillopt/contract';
import { createReferenceAnsweringChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, DEMO_ANSWER_TYPES, type SearchQaTaskItem } from '../src/index';
import { DEMO_SPLIT_DIR } from './helpers';

const environment = createEnvironment({ split_dir: DEMO_SPLIT_DIR });

async function loadAll(): Promise<Record<string, SearchQaTaskItem[]>> {
  const splits: Record<string, SearchQaTaskItem[]> = {};
  for (const split of SPLIT_NAMES) splits[split] = (await environment.loadSplit(split)) as SearchQaTaskItem[];
  return splits;
}

describe('the demo dataset (datasets/demo)', () => {
  it('has at least 120 items with unique ids and questions across the splits', async () => {
    const splits = await loadAll();
    const all = Object.values(splits).flat();
    expect(all.length).toBeGreaterThanOrEqual(120);
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    expect(new Set(all.map((item) => item.question.toLowerCase())).size).toBe(all.length);
    expect([splits.train!.length, splits.val!.length, splits.test!.length]).toEqual([60, 30, 36]);
  });

  it('labels every item with a known answer_type, each present and balanced in every split', async () => {
    const splits = await loadAll();
    for (const [split, items] of Object.entries(splits)) {
      const counts = new Map<string, number>();
      for (const item of items) {
        expect(DEMO_ANSWER_TYPES).toContain(item.answer_type);
        counts.set(item.answer_type!, (counts.get(item.answer_type!) ?? 0) + 1);
      }
      for (const type of DEMO_ANSWER_TYPES) expect([split, type, counts.get(type)]).toEqual([split, type, items.length / DEMO_ANSWER_TYPES.length]);
    }
  });

  it('gives every answer the shape its answer_type promises', async () => {
    const all = Object.values(await loadAll()).flat();
    const shapes: Record<string, RegExp> = {
      number: /^\d+$/,
      date: /^(January|February|March|April|May|June|July|August|September|October|November|December) [1-9]\d?, \d{4}$/,
      quantity: /^\d+(\.\d+)?$/,
      person_surname: /^\p{Lu}[\p{L}'-]+$/u,
      name: /^\p{Lu}[\p{L}-]+$/u,
      multiword_name: /^\S+( \S+)+$/,
    };
    for (const item of all) {
      expect([item.id, shapes[item.answer_type!]!.test(item.references[0]!)]).toEqual([item.id, true]);
      expect(item.context).toBeUndefined();
      if (item.answer_type === 'quantity') expect(item.question).toMatch(/, in [A-Za-z ]+\?$/);
    }
  });

  it('is answered perfectly by a model that knows the answers and formats them right', async () => {
    const items = Object.values(await loadAll()).flat();
    const model = createReferenceAnsweringChatModel(items);
    for (const item of items) {
      const result = await environment.rollout(item, {
        skill: await environment.initialSkill(),
        target: { kind: 'chat', model },
        signal: new AbortController().signal,
        workDirectory: () => Promise.reject(new Error('the demo rollout writes no files')),
        sampleIndex: 0,
      });
      expect(result).toMatchObject({ status: 'scored', hard: 1, soft: 1 });
    }
  });
});
