import type { ChatModel, ScoredRollout, TaskItem } from '@skillopt/contract';
import { reflect, rewriteFromTrajectories } from '@skillopt/optimizer';
import { createAnswerKey, createSimulatedModel, readSkillRules } from '../src/index';
import { mergePrompt, rankPrompt, rewriteFromSuggestionsPrompt, type TestEdit } from './optimizer-prompts';
import {
  exactScore,
  HARMFUL_ITEM,
  HARMFUL_RULE,
  PROGRAMMER_ITEMS,
  RESEARCHER_ITEMS,
  replay,
  SCAFFOLD,
  skillWith,
  ARXIV_RULE,
  WRAP_RULE,
  COMMIT_RULE,
} from './sleep-helpers';

// The simulated optimizer reading failed Sleep replays: the target's real replies, scored by
// Sleep's exact judge, rendered by the real optimizer's reflect stage (task type=sleep).

const items = [...RESEARCHER_ITEMS, ...PROGRAMMER_ITEMS, HARMFUL_ITEM];
const key = createAnswerKey(items);
const target = createSimulatedModel({ role: 'target', seed: 11, answerKey: key });

async function rollout(item: TaskItem, skill: string, withTurns = false): Promise<ScoredRollout> {
  const reply = await replay(target, skill, item.question as string);
  const reference = item.references?.[0] as string;
  const { hard, soft } = exactScore(reference, reply);
  return {
    status: 'scored',
    id: item.id,
    taskType: 'sleep',
    hard,
    soft,
    prediction: reply,
    reference,
    ...(withTurns
      ? {
          trajectory: {
            turns: [
              { role: 'user', content: item.question as string },
              { role: 'assistant', content: reply },
            ],
          },
        }
      : {}),
  };
}

async function proposedRules(results: readonly ScoredRollout[], skill: string, options: { harmfulRuleRate?: number; seed?: number } = {}): Promise<string[]> {
  const reflection = await reflect({
    model: createSimulatedModel({ role: 'optimizer', seed: options.seed ?? 11, harmfulRuleRate: options.harmfulRuleRate ?? 0 }),
    signal: new AbortController().signal,
    skill,
    results,
    minibatchSize: 8,
    maxEditsPerAnalyst: 4,
    failureOnly: true,
  });
  return reflection.reports.flatMap((report) => report.edits.map((edit) => edit.content ?? ''));
}

const fixesOf = (rule: string): string[] => [...readSkillRules(rule).fixes].sort();
const harmsOf = (rule: string): string[] => [...readSkillRules(rule).harms].sort();

async function ask(model: ChatModel, prompt: string): Promise<Record<string, unknown>> {
  const result = await model.generate({ messages: [{ role: 'user', content: prompt }], purpose: 'optimize' });
  return JSON.parse(result.text) as Record<string, unknown>;
}

describe('the simulated optimizer on Sleep trajectories', () => {
  it('proposes the same two rules for tasks mined with a contains check, which carry no reference', async () => {
    // What Sleep's miner writes from a session the developer was satisfied with, judged by its rule judge.
    const failed = await Promise.all(
      RESEARCHER_ITEMS.map(async (item): Promise<ScoredRollout> => {
        const reply = await replay(target, SCAFFOLD, item.question as string);
        const accepted = item.references?.[0] as string;
        expect(reply).not.toContain(accepted);
        return {
          status: 'scored',
          id: item.id,
          taskType: 'sleep',
          hard: 0,
          soft: 0.5,
          prediction: reply,
          trajectory: {
            turns: [
              { role: 'user', content: item.question as string },
              { role: 'assistant', content: reply },
            ],
            failureReason: `failed: contains=${accepted}`,
          },
        };
      }),
    );
    expect((await proposedRules(failed, SCAFFOLD)).map(fixesOf).sort()).toEqual([['bare-arxiv-id'], ['missing-tag']]);
  });

  it('proposes the wrap and arXiv rules for the researcher persona, once each, naming no task', async () => {
    const failed = await Promise.all(RESEARCHER_ITEMS.map((item) => rollout(item, SCAFFOLD)));
    expect(failed.map((result) => result.hard)).toEqual(failed.map(() => 0));
    const rules = await proposedRules(failed, SCAFFOLD);
    expect(rules.map(fixesOf).sort()).toEqual([['bare-arxiv-id'], ['missing-tag']]);
    for (const rule of rules) {
      expect(harmsOf(rule)).toEqual([]);
      expect(rule).not.toMatch(/\d{4}\.\d{4,5}|attention|skillopt/i);
    }
    // The rules it proposes are ones the target reads: with them the persona passes.
    const learned = skillWith(...rules.map((rule) => rule.replace(/^[-*]\s+/, '')));
    for (const item of RESEARCHER_ITEMS) expect((await rollout(item, learned)).hard).toBe(1);
  });

  it('reads the same from recorded turns, and proposes the commit rule for the programmer persona', async () => {
    const failed = await Promise.all(PROGRAMMER_ITEMS.map((item) => rollout(item, SCAFFOLD, true)));
    const rules = await proposedRules(failed, SCAFFOLD);
    expect(rules.map(fixesOf)).toEqual([['past-tense-commit']]);
    const learned = skillWith(...rules.map((rule) => rule.replace(/^[-*]\s+/, '')));
    for (const item of PROGRAMMER_ITEMS) expect((await rollout(item, learned)).hard).toBe(1);
  });

  it('skips a rule the skill already has', async () => {
    const skill = skillWith(WRAP_RULE);
    const failed = await Promise.all(RESEARCHER_ITEMS.map((item) => rollout(item, skill)));
    expect((await proposedRules(failed, skill)).map(fixesOf)).toEqual([['bare-arxiv-id']]);
  });

  it('proposes nothing for a task no rule can satisfy', async () => {
    expect(await proposedRules([await rollout(HARMFUL_ITEM, SCAFFOLD)], SCAFFOLD)).toEqual([]);
  });

  it('at harmfulRuleRate 1 proposes a harmful rule, which the target then follows', async () => {
    const failed = await Promise.all(RESEARCHER_ITEMS.map((item) => rollout(item, SCAFFOLD)));
    let sawFormatHarm = false;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rules = await proposedRules(failed, SCAFFOLD, { harmfulRuleRate: 1, seed });
      const harmful = rules.filter((rule) => harmsOf(rule).length > 0);
      expect(harmful.length).toBeGreaterThanOrEqual(1);
      if (harmful.some((rule) => harmsOf(rule).includes('ignores-requested-format'))) sawFormatHarm = true;
      const good = skillWith(WRAP_RULE, ARXIV_RULE);
      const harmed = skillWith(WRAP_RULE, ARXIV_RULE, ...harmful.map((rule) => rule.replace(/^[-*]\s+/, '')));
      const item = RESEARCHER_ITEMS[1] as TaskItem;
      // The habit it switches on shows; an unwrapped answer alone still holds the reference for the exact judge.
      expect((await rollout(item, harmed)).prediction).not.toBe((await rollout(item, good)).prediction);
      if (harmful.some((rule) => !harmsOf(rule).every((harm) => harm === 'missing-tag'))) expect((await rollout(item, harmed)).hard).toBe(0);
    }
    expect(sawFormatHarm).toBe(true);
  });

  it('replaces a harmful rule in the skill with the fixing rule', async () => {
    const skill = skillWith(WRAP_RULE, COMMIT_RULE, HARMFUL_RULE);
    const failed = await Promise.all(PROGRAMMER_ITEMS.map((item) => rollout(item, skill)));
    const reflection = await reflect({
      model: createSimulatedModel({ role: 'optimizer', seed: 11 }),
      signal: new AbortController().signal,
      skill,
      results: failed,
      minibatchSize: 8,
      maxEditsPerAnalyst: 4,
      failureOnly: true,
    });
    const edits = reflection.reports.flatMap((report) => report.edits);
    expect(edits).toHaveLength(1);
    expect(edits[0]?.op).toBe('replace');
    expect(edits[0]?.target).toContain(HARMFUL_RULE);
    expect(fixesOf(edits[0]?.content ?? '')).toEqual(['past-tense-commit']);
  });

  it('merges two wordings of the same Sleep rule, ranks and rewrites them into a skill the target passes', async () => {
    const optimizer = createSimulatedModel({ role: 'optimizer', seed: 11 });
    const edits: TestEdit[] = [
      { op: 'append', content: '- Keep the arXiv: prefix on paper ids; never drop it.', support: 3, source: 'failure' },
      { op: 'append', content: '- Never strip the arXiv: prefix from an arXiv id.', support: 2, source: 'failure' },
      { op: 'append', content: `- ${WRAP_RULE}`, support: 3, source: 'failure' },
      { op: 'append', content: `- ${COMMIT_RULE}`, support: 1, source: 'failure' },
    ];
    const merged = (await ask(optimizer, mergePrompt(SCAFFOLD, edits))).edits as Array<TestEdit & { mergedFrom: number[] }>;
    expect(merged.map((edit) => edit.mergedFrom)).toEqual([[1, 2], [3], [4]]);
    const selected = (
      await ask(
        optimizer,
        rankPrompt(
          SCAFFOLD,
          merged.map((edit) => ({ ...edit, support: edit.mergedFrom.length + 1 })),
          2,
        ),
      )
    ).selected as number[];
    expect(selected).toEqual([1, 2]);
    const rewritten = await ask(
      optimizer,
      rewriteFromSuggestionsPrompt(
        SCAFFOLD,
        selected.map((number) => ({ ...(merged[number - 1] as TestEdit), support: 1 })),
      ),
    );
    const skill = rewritten.newSkill as string;
    expect(fixesOf(skill)).toEqual(['bare-arxiv-id', 'missing-tag']);
    for (const item of RESEARCHER_ITEMS) expect((await rollout(item, skill)).hard).toBe(1);
  });

  it('a full rewrite from Sleep trajectories drops the format-ignoring rule and adds the missing ones', async () => {
    const skill = skillWith(HARMFUL_RULE);
    const failed = await Promise.all(RESEARCHER_ITEMS.map((item) => rollout(item, skill)));
    const update = await rewriteFromTrajectories({
      model: createSimulatedModel({ role: 'optimizer', seed: 11 }),
      signal: new AbortController().signal,
      skill,
      results: failed,
    });
    if (!update.ok) throw new Error('the full rewrite failed');
    expect(update.value.skill).not.toContain(HARMFUL_RULE);
    expect(fixesOf(update.value.skill)).toEqual(['bare-arxiv-id', 'missing-tag']);
    expect(harmsOf(update.value.skill)).toEqual([]);
    for (const item of RESEARCHER_ITEMS) expect((await rollout(item, update.value.skill)).hard).toBe(1);
  });
});
