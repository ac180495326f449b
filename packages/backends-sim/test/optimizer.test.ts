import { OPTIMIZER_PROMPTS, OPTIMIZER_PROMPT_STAGES, type ChatModel, type TaskItem } from '@skillopt/contract';
import { PROMPT_TEMPLATES, renderStagePrompt, templatePlaceholders } from '@skillopt/optimizer';
import {
  createAnswerKey,
  createSimulatedModel,
  detectPrompt,
  GOOD_RULE_PHRASINGS,
  readSkillRules,
  USELESS_RULE_PHRASINGS,
  type FailureClass,
} from '../src/index';
import { extract, GOOD_SKILL, hardScore, INITIAL_SKILL, syntheticItems, systemPrompt, userPrompt } from './helpers';
import {
  appendixConsolidatePrompt,
  fullRewritePrompt,
  lrDecidePrompt,
  mergePrompt,
  metaSkillPrompt,
  rankPrompt,
  reflectFailurePrompt,
  reflectSuccessPrompt,
  rewriteFromSuggestionsPrompt,
  slowUpdatePrompt,
  type TestEdit,
  type TestTrajectory,
} from './optimizer-prompts';
import { appendixReply, lrReply, mergeReply, metaSkillReply, parseReply, rankReply, reflectReply, rewriteReply, slowUpdateReply } from './reply-schemas';

const items = syntheticItems();
const key = createAnswerKey(items);
const target = createSimulatedModel({ role: 'target', seed: 7, answerKey: key });
const optimizer = (options: { seed?: number; harmfulRuleRate?: number; uselessRuleRate?: number; malformedReplyRate?: number } = {}) =>
  createSimulatedModel({
    role: 'optimizer',
    seed: options.seed ?? 1,
    harmfulRuleRate: options.harmfulRuleRate ?? 0,
    uselessRuleRate: options.uselessRuleRate ?? 0,
    malformedReplyRate: options.malformedReplyRate ?? 0,
  });

async function call(model: ChatModel, prompt: string, purpose = 'reflect'): Promise<string> {
  return (await model.generate({ messages: [{ role: 'user', content: prompt }], purpose, responseFormat: { type: 'json' } })).text;
}

/** Rolls items out as the SearchQA env would and returns trajectories (reply, extracted answer, reference, feedback). */
async function rollout(skill: string, subset: readonly TaskItem[]): Promise<Array<TestTrajectory & { classes: FailureClass[] }>> {
  return Promise.all(
    subset.map(async (item) => {
      const result = await target.generate({
        messages: [
          { role: 'system', content: systemPrompt(skill) },
          { role: 'user', content: userPrompt(item.question as string) },
        ],
        purpose: 'rollout',
      });
      const references = item.references as string[];
      const prediction = extract(result.text);
      const hard = hardScore(result.text, references);
      return {
        id: item.id,
        hard,
        soft: hard,
        prediction,
        reference: references[0] as string,
        turns: [
          { role: 'user', content: userPrompt(item.question as string) },
          { role: 'assistant', content: result.text },
          { role: 'environment', content: hard ? 'EM=1' : `EM=0: predicted '${prediction}' but expected ['${references[0]}']` },
        ],
        classes: (result.providerMetadata?.simulatedFailureClasses as FailureClass[]) ?? [],
      };
    }),
  );
}

describe('the simulated optimizer', () => {
  it('is labelled as simulated', async () => {
    const model = optimizer();
    expect(model.modelId).toBe('sim-optimizer');
    const failed = (await rollout(INITIAL_SKILL, items.slice(0, 12))).filter((trajectory) => trajectory.hard === 0);
    const reply = parseReply(await call(model, reflectFailurePrompt(INITIAL_SKILL, failed)), reflectReply);
    expect(reply.reasoning).toMatch(/simulated/);
  });

  it('recognises every stage from the prompt text', () => {
    const edits: TestEdit[] = [{ op: 'append', content: '- x', support: 1 }];
    const prompts: Array<[string, string]> = [
      ['reflect-failure', reflectFailurePrompt(INITIAL_SKILL, [])],
      ['reflect-success', reflectSuccessPrompt(INITIAL_SKILL, [])],
      ['merge', mergePrompt(INITIAL_SKILL, edits)],
      ['rank', rankPrompt(INITIAL_SKILL, edits, 1)],
      ['lr-decide', lrDecidePrompt(INITIAL_SKILL, edits, 1, 4)],
      ['rewrite-from-suggestions', rewriteFromSuggestionsPrompt(INITIAL_SKILL, edits)],
      ['full-rewrite', fullRewritePrompt(INITIAL_SKILL, [])],
      ['slow-update', slowUpdatePrompt(INITIAL_SKILL, INITIAL_SKILL, [])],
      ['meta-skill', metaSkillPrompt(INITIAL_SKILL, INITIAL_SKILL, [])],
      ['appendix-consolidate', appendixConsolidatePrompt(['a', 'b'])],
    ];
    for (const [template, prompt] of prompts) expect(detectPrompt(prompt)).toBe(template);
  });

  // The optimizer's real templates, rendered by the optimizer itself (a devDependency: tests may
  // use any package). Rewording a template so that the simulator no longer knows it fails here.
  it.each(OPTIMIZER_PROMPTS.map((template) => [template]))("recognises the optimizer's rendered %s template and its stage", async (template) => {
    const values = Object.fromEntries(templatePlaceholders(PROMPT_TEMPLATES[template]).map((name) => [name, `(${name})`]));
    const rendered = renderStagePrompt(template, values);
    expect(detectPrompt(rendered)).toBe(template);
    const reply = await optimizer().generate({ messages: [{ role: 'user', content: rendered }], purpose: OPTIMIZER_PROMPT_STAGES[template] });
    expect(reply.providerMetadata).toMatchObject({ prompt: template, stage: OPTIMIZER_PROMPT_STAGES[template] });
  });

  it('reads failed trajectories and proposes a rule for each failure class in them', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0);
    const present = new Set(failed.flatMap((trajectory) => trajectory.classes));
    expect(present.size).toBe(7);
    const reply = parseReply(await call(optimizer(), reflectFailurePrompt(INITIAL_SKILL, failed, 7)), reflectReply);
    const addressed = new Set(reply.edits.flatMap((edit) => [...readSkillRules(edit.content ?? '').fixes]));
    expect([...addressed].sort()).toEqual([...present].sort());
    for (const edit of reply.edits) expect(['append', 'insert_after']).toContain(edit.op);
  });

  it('does not propose again an edit the prompt lists as already tried and rejected', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0);
    const prompt = reflectFailurePrompt(INITIAL_SKILL, failed, 7);
    const classesOf = (edits: ReadonlyArray<{ content?: string | null | undefined }>) =>
      new Set(edits.flatMap((edit) => [...readSkillRules(edit.content ?? '').fixes]));
    expect(classesOf(parseReply(await call(optimizer(), prompt), reflectReply).edits).has('number-words')).toBe(true);
    // Every wording of the digits rule was tried and refused: none is proposed again.
    const rejectedSection =
      '## Edits already tried and rejected\n\nThese edits were applied in earlier steps and made the skill score worse on validation tasks. Do not propose them again.\n\n' +
      GOOD_RULE_PHRASINGS['number-words'].map((rule, index) => `- step ${index + 1}, score 0.500 -> 0.400: append: ${JSON.stringify(`- ${rule}`)}`).join('\n') +
      '\n\n';
    const second = parseReply(await call(optimizer(), prompt.replace('## Current skill', `${rejectedSection}## Current skill`)), reflectReply).edits;
    expect(classesOf(second).has('number-words')).toBe(false);
    expect(second.length).toBeGreaterThan(0);
  });

  it('keeps to the edit budget, most frequent causes first', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0);
    const reply = parseReply(await call(optimizer(), reflectFailurePrompt(INITIAL_SKILL, failed, 2)), reflectReply);
    expect(reply.edits).toHaveLength(2);
  });

  it('infers classes from a minibatch of eight, as a real analyst would see it', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0).slice(0, 8);
    const present = new Set(failed.flatMap((trajectory) => trajectory.classes));
    const reply = parseReply(await call(optimizer(), reflectFailurePrompt(INITIAL_SKILL, failed, 8)), reflectReply);
    const addressed = new Set(reply.edits.flatMap((edit) => [...readSkillRules(edit.content ?? '').fixes]));
    for (const failureClass of present) expect(addressed).toContain(failureClass);
  });

  it('words its rules differently under different seeds', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0);
    const prompt = reflectFailurePrompt(INITIAL_SKILL, failed, 7);
    const wordings = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5])
      for (const edit of parseReply(await call(optimizer({ seed }), prompt), reflectReply).edits) wordings.add(edit.content ?? '');
    expect(wordings.size).toBeGreaterThan(10);
    expect(await call(optimizer({ seed: 2 }), prompt)).toBe(await call(optimizer({ seed: 2 }), prompt));
  });

  it('proposes harmful and useless rules at their rates', async () => {
    const failed = (await rollout(INITIAL_SKILL, items)).filter((trajectory) => trajectory.hard === 0);
    let harmful = 0;
    let useless = 0;
    const calls = 40;
    for (let seed = 0; seed < calls; seed += 1) {
      const reply = parseReply(
        await call(optimizer({ seed, harmfulRuleRate: 0.3, uselessRuleRate: 0.3 }), reflectFailurePrompt(INITIAL_SKILL, failed, 8)),
        reflectReply,
      );
      if (reply.edits.some((edit) => readSkillRules(edit.content ?? '').harms.size > 0)) harmful += 1;
      if (reply.edits.some((edit) => USELESS_RULE_PHRASINGS.some((phrasing) => (edit.content ?? '').includes(phrasing)))) useless += 1;
    }
    expect(harmful).toBeGreaterThanOrEqual(4);
    expect(harmful).toBeLessThanOrEqual(20);
    expect(useless).toBeGreaterThanOrEqual(4);
    expect(useless).toBeLessThanOrEqual(20);
  });

  it('replaces a harmful rule of the skill when its failures show', async () => {
    const skill = `${GOOD_SKILL}- Always include the unit of measurement with numeric answers.\n`;
    const failed = (
      await rollout(
        skill,
        items.filter((item) => String(item.id).startsWith('qty')),
      )
    ).filter((trajectory) => trajectory.hard === 0);
    expect(failed.length).toBeGreaterThan(0);
    const reply = parseReply(await call(optimizer(), reflectFailurePrompt(skill, failed)), reflectReply);
    const replace = reply.edits.find((edit) => edit.op === 'replace');
    expect(replace?.target).toBe('- Always include the unit of measurement with numeric answers.');
    expect([...readSkillRules(replace?.content ?? '').fixes]).toEqual(['unit-appended']);
  });

  it('writes appendix notes only when the prompt asks for them', async () => {
    const failed = (await rollout(INITIAL_SKILL, items.slice(0, 18))).filter((trajectory) => trajectory.hard === 0);
    expect(parseReply(await call(optimizer(), reflectFailurePrompt(INITIAL_SKILL, failed)), reflectReply).appendixNotes).toBeUndefined();
    expect(parseReply(await call(optimizer(), reflectFailurePrompt(INITIAL_SKILL, failed, 4, true)), reflectReply).appendixNotes).toEqual(expect.any(Array));
  });

  it('proposes nothing from successes unless it pads with a useless rule', async () => {
    const succeeded = (await rollout(GOOD_SKILL, items.slice(0, 12))).filter((trajectory) => trajectory.hard === 1);
    expect(parseReply(await call(optimizer(), reflectSuccessPrompt(GOOD_SKILL, succeeded)), reflectReply).edits).toEqual([]);
    const padded = parseReply(await call(optimizer({ uselessRuleRate: 1 }), reflectSuccessPrompt(GOOD_SKILL, succeeded)), reflectReply);
    expect(padded.edits).toHaveLength(1);
  });

  it('merges edits by the failure they address and says which inputs each covers', async () => {
    const edits: TestEdit[] = [
      { op: 'append', content: '- Write numbers with digits, never in words.', support: 8, source: 'failure' },
      { op: 'append', content: '- Give the bare number without units.', support: 8, source: 'failure' },
      { op: 'append', content: '- Never spell out numbers: the grader compares digits exactly.', support: 5, source: 'failure' },
      { op: 'append', content: '- Double-check your work before answering.', support: 3, source: 'success' },
      { op: 'insert_after', target: '# Question Answering Skill', content: '- Omit the unit of measurement.', support: 2, source: 'failure' },
    ];
    const reply = parseReply(await call(optimizer(), mergePrompt(INITIAL_SKILL, edits), 'merge'), mergeReply(edits.length));
    expect(reply.edits).toHaveLength(3);
    const covered = reply.edits.map((edit) => [...edit.mergedFrom].sort());
    expect(covered).toEqual([[1, 3], [2, 5], [4]]);
    expect(reply.edits[0]?.content).toBe('- Write numbers with digits, never in words.');
  });

  it('ranks by support within the budget', async () => {
    const edits: TestEdit[] = [
      { op: 'append', content: '- Double-check your work.', support: 3 },
      { op: 'append', content: '- Write numbers with digits.', support: 16 },
      { op: 'append', content: '- Omit units.', support: 8 },
      { op: 'append', content: '- Use the surname only.', support: 8 },
    ];
    const reply = parseReply(await call(optimizer(), rankPrompt(INITIAL_SKILL, edits, 2), 'rank'), rankReply(edits.length));
    expect(reply.selected).toEqual([2, 3]);
  });

  it('decides a learning rate within the bounds', async () => {
    const edits: TestEdit[] = Array.from({ length: 9 }, (_, index) => ({ op: 'append', content: `- rule ${index}`, support: 1 }));
    const reply = parseReply(await call(optimizer(), lrDecidePrompt(INITIAL_SKILL, edits, 2, 4), 'lr-decide'), lrReply);
    expect(reply.learningRate).toBeGreaterThanOrEqual(2);
    expect(reply.learningRate).toBeLessThanOrEqual(4);
    const one = parseReply(await call(optimizer(), lrDecidePrompt(INITIAL_SKILL, edits.slice(0, 1), 1, 3), 'lr-decide'), lrReply);
    expect(one.learningRate).toBeGreaterThanOrEqual(1);
    expect(one.learningRate).toBeLessThanOrEqual(3);
  });

  it('rewrites the skill from suggestions, adding their rules', async () => {
    const edits: TestEdit[] = [
      { op: 'append', content: '- Write numbers with digits.', support: 4 },
      { op: 'insert_after', target: '# Question Answering Skill', content: '- Give the bare number without units.', support: 2 },
    ];
    const reply = parseReply(await call(optimizer(), rewriteFromSuggestionsPrompt(INITIAL_SKILL, edits), 'rewrite'), rewriteReply);
    expect(reply.newSkill).toContain('# Question Answering Skill\n- Give the bare number without units.');
    expect(reply.newSkill).toContain('- Write numbers with digits.');
    expect(reply.changeSummary).toHaveLength(2);
  });

  it('rewrites the skill in full from trajectories', async () => {
    const trajectories = await rollout(INITIAL_SKILL, items);
    const reply = parseReply(await call(optimizer(), fullRewritePrompt(INITIAL_SKILL, trajectories), 'rewrite'), rewriteReply);
    expect([...readSkillRules(reply.newSkill).fixes].sort()).toEqual([...new Set(trajectories.flatMap((trajectory) => trajectory.classes))].sort());
  });

  it('answers slow-update, meta-skill and appendix-consolidate with short valid replies', async () => {
    const previous = await rollout(INITIAL_SKILL, items.slice(0, 12));
    const current = await rollout(INITIAL_SKILL, items.slice(0, 12));
    const pairs = previous
      .map((trajectory, index) => ({ previous: trajectory, current: current[index] as TestTrajectory }))
      .filter((pair) => pair.current.hard === 0);
    const slow = parseReply(await call(optimizer(), slowUpdatePrompt(INITIAL_SKILL, INITIAL_SKILL, pairs), 'slow-update'), slowUpdateReply);
    expect(readSkillRules(slow.guidance).fixes.size).toBeGreaterThan(0);
    const meta = parseReply(await call(optimizer(), metaSkillPrompt(INITIAL_SKILL, INITIAL_SKILL, pairs), 'meta-skill'), metaSkillReply);
    expect(meta.metaSkill).toMatch(/simulated/);
    const notes = ['Follow the rule about digits.', 'Remember: write numbers with digits.', 'Close the answer tag.', 'Never omit the answer tags.'];
    const consolidated = parseReply(await call(optimizer(), appendixConsolidatePrompt(notes), 'appendix-consolidate'), appendixReply(notes.length));
    expect(consolidated.notes.length).toBeLessThan(notes.length);
    const distinct = ['Close the answer tag.', 'Write numbers with digits.'];
    expect(parseReply(await call(optimizer(), appendixConsolidatePrompt(distinct), 'appendix-consolidate'), appendixReply(distinct.length)).notes).toHaveLength(
      1,
    );
  });

  it('sends malformed replies at its rate, and always answers a re-ask properly', async () => {
    const failed = (await rollout(INITIAL_SKILL, items.slice(0, 12))).filter((trajectory) => trajectory.hard === 0);
    const prompt = reflectFailurePrompt(INITIAL_SKILL, failed);
    const model = optimizer({ malformedReplyRate: 1 });
    const first = await call(model, prompt);
    expect(
      reflectReply.safeParse(
        (() => {
          try {
            return JSON.parse(first) as unknown;
          } catch {
            return undefined;
          }
        })(),
      ).success,
    ).toBe(false);
    const second = await model.generate({
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: first },
        {
          role: 'user',
          content: 'Your reply could not be used: no JSON value was found in the reply.\nReply again with only the JSON value the instructions ask for.',
        },
      ],
      purpose: 'reflect',
    });
    expect(reflectReply.safeParse(JSON.parse(second.text)).success).toBe(true);
  });

  it('refuses a prompt it does not recognise, in words, without failing', async () => {
    const result = await optimizer().generate({ messages: [{ role: 'user', content: 'Write me a poem about autumn.' }], purpose: 'judge' });
    expect(result.text).toMatch(/simulated/);
    expect(result.text).toMatch(/do not recognise/);
    expect(result.providerMetadata).toMatchObject({ stage: 'unrecognised' });
  });

  it('drives a small gated training loop to a much better skill', async () => {
    const model = createSimulatedModel({ role: 'optimizer', seed: 5, harmfulRuleRate: 0.15, uselessRuleRate: 0.15 });
    const score = async (skill: string): Promise<number> => (await rollout(skill, items)).reduce((total, trajectory) => total + trajectory.hard, 0);
    let skill = INITIAL_SKILL;
    let best = await score(skill);
    const initial = best;
    for (let step = 0; step < 4; step += 1) {
      const failed = (await rollout(skill, items)).filter((trajectory) => trajectory.hard === 0);
      const proposals: TestEdit[] = [];
      for (let start = 0; start < failed.length; start += 8) {
        const batch = failed.slice(start, start + 8);
        const reply = parseReply(await call(model, reflectFailurePrompt(skill, batch, 4)), reflectReply);
        for (const edit of reply.edits)
          proposals.push({
            op: edit.op,
            ...(edit.target ? { target: edit.target } : {}),
            ...(edit.content ? { content: edit.content } : {}),
            rationale: edit.rationale ?? '',
            support: batch.length,
            source: 'failure',
          });
      }
      if (proposals.length === 0) break;
      const merged = parseReply(await call(model, mergePrompt(skill, proposals), 'merge'), mergeReply(proposals.length)).edits.map((edit) => ({
        op: edit.op,
        ...(edit.target ? { target: edit.target } : {}),
        ...(edit.content ? { content: edit.content } : {}),
        support: edit.mergedFrom.reduce((total, number) => total + (proposals[number - 1]?.support ?? 0), 0),
      }));
      const selected =
        merged.length <= 4
          ? merged
          : parseReply(await call(model, rankPrompt(skill, merged, 4), 'rank'), rankReply(merged.length)).selected.map(
              (number) => merged[number - 1] as TestEdit,
            );
      let candidate = skill.replace(/\s+$/, '');
      for (const edit of selected) {
        if (edit.op === 'replace' && edit.target && candidate.includes(edit.target)) candidate = candidate.replace(edit.target, edit.content ?? '');
        else if (edit.op === 'delete' && edit.target) candidate = candidate.replace(edit.target, '');
        else if (edit.op === 'insert_after' && edit.target && candidate.includes(edit.target))
          candidate = candidate.replace(edit.target, `${edit.target}\n${edit.content}`);
        else if (edit.content) candidate = `${candidate}\n${edit.content}`;
      }
      candidate = `${candidate}\n`;
      const candidateScore = await score(candidate);
      if (candidateScore > best) {
        best = candidateScore;
        skill = candidate;
      }
    }
    expect(best - initial).toBeGreaterThanOrEqual(Math.ceil(items.length * 0.25));
  });
});
