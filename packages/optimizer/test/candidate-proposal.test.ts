import { editSchema } from '@skillopt/contract';
import {
  proposeCandidate,
  readAppendixNotes,
  type CandidateProposalOptions,
  type CandidateProposalProgress,
  type CandidateProposalSettings,
} from '../src/index';
import { createScriptedOptimizerDouble, noAbort, type RecordedCall } from './scripted-optimizer-double';
import { numberedEdits, scored, trajectoryIds } from './fixtures';

const SKILL = '# Skill\n\n- Answer the question.\n';
// Two failure minibatches (f1+f2, f3) and one success minibatch (s1+s2) at a minibatch size of 2.
const RESULTS = [scored('f1', 0), scored('f2', 0), scored('f3', 0), scored('s1', 1), scored('s2', 1)];

function settings(overrides: Partial<CandidateProposalSettings> = {}): CandidateProposalSettings {
  return {
    updateMode: 'patch',
    learningRate: { schedule: 'constant', maxLearningRate: 2, minLearningRate: 0, totalSteps: 4 },
    learningRateLimitsEdits: true,
    minibatchSize: 2,
    failureOnly: false,
    mergeBatchSize: 2,
    concurrency: 4,
    ...overrides,
  };
}

type Replies = Partial<Record<string, (call: RecordedCall) => string>>;

/** One append per analyst naming its minibatch, so every edit says where it came from. */
function analystReply(call: RecordedCall): string {
  const kind = call.prompt.includes('## Failed trajectories') ? 'failure' : 'success';
  const ids = trajectoryIds(call.prompt).join('+');
  return JSON.stringify({
    reasoning: 'seen',
    edits: [{ op: 'append', content: `- ${kind} rule for ${ids}`, rationale: 'r' }],
    appendixNotes: [`Re-read the rule for ${ids}.`],
  });
}

/** A merge that keeps every input edit as it is. */
function keepEveryEdit(call: RecordedCall): string {
  return JSON.stringify({ edits: numberedEdits(call.prompt).map((input) => ({ ...input.edit, rationale: 'kept', mergedFrom: [input.number] })) });
}

function scriptedOptimizer(overrides: Replies = {}) {
  const replies: Replies = { reflect: analystReply, merge: keepEveryEdit, rank: () => '{"reasoning": "failures first", "selected": [1, 3]}', ...overrides };
  return createScriptedOptimizerDouble({
    reply: (call) => {
      const reply = replies[call.purpose];
      if (reply === undefined) throw new Error(`this test scripted no ${call.purpose} call`);
      return reply(call);
    },
  });
}

async function propose(model: ReturnType<typeof scriptedOptimizer>, overrides: Partial<CandidateProposalOptions> = {}) {
  const progress: CandidateProposalProgress[] = [];
  const proposal = await proposeCandidate({
    model,
    signal: noAbort(),
    skill: SKILL,
    results: RESULTS,
    settings: settings(),
    globalStep: 1,
    metaSkill: 'STRATEGY-NOTES',
    rejectedEdits: 'REJECTED-EDITS',
    onProgress: (event) => progress.push(event),
    ...overrides,
  });
  return { proposal, progress };
}

const purposes = (model: ReturnType<typeof scriptedOptimizer>) => model.calls.map((call) => call.purpose);

describe('proposeCandidate', () => {
  test('reflects, merges, keeps at most the learning rate of edits and applies them', async () => {
    const model = scriptedOptimizer();
    const { proposal, progress } = await propose(model);

    // Three analysts; the two failure patches merge, then one final merge with the success patch; three edits for a learning rate of 2, so a ranking.
    expect(purposes(model)).toEqual(['reflect', 'reflect', 'reflect', 'merge', 'merge', 'rank']);
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome !== 'candidate') return;
    expect(proposal.selectedEdits.map((edit) => edit.content)).toEqual(['- failure rule for f1+f2', '- success rule for s1+s2']);
    expect(proposal.skill).toBe('# Skill\n\n- Answer the question.\n\n- failure rule for f1+f2\n\n- success rule for s1+s2\n');
    expect(proposal.editCounts).toEqual({ proposed: 3, merged: 3, selected: 2 });
    expect(proposal.learningRate).toBe(2);
    expect(progress).toEqual([
      { type: 'edits-proposed', stage: 'reflect', count: 3 },
      { type: 'edits-proposed', stage: 'merge', count: 3 },
      { type: 'edits-proposed', stage: 'rank', count: 2 },
    ]);
  });

  test('counts every call, its tokens and the waves they ran in', async () => {
    const model = scriptedOptimizer();
    const { proposal } = await propose(model);
    expect(proposal.optimizerCalls).toBe(6);
    expect(proposal.optimizerUsage).toEqual({ inputTokens: 60, outputTokens: 30 });
    // Analysts 1, the failure merge beside the (callless) success side 1, the final merge 1, the ranking 1.
    expect(proposal.sequentialWaves).toBe(4);
  });

  test('replies with JSON slips are repaired instead of re-asked, and counted', async () => {
    // A trailing comma in every analyst's reply, single quotes in the merges and the ranking.
    const withTrailingComma = (call: RecordedCall) => analystReply(call).replace(/}$/, ',}');
    const singleQuoted = (reply: string) => reply.replace(/"/g, "'");
    const model = scriptedOptimizer({
      reflect: withTrailingComma,
      merge: (call) => singleQuoted(keepEveryEdit(call)),
      rank: () => "{'reasoning': 'failures first', 'selected': [1, 3],}",
    });
    const { proposal } = await propose(model);
    expect(proposal.outcome).toBe('candidate');
    expect(purposes(model)).toEqual(['reflect', 'reflect', 'reflect', 'merge', 'merge', 'rank']);
    expect(proposal.optimizerCalls).toBe(6);
    expect(proposal.repairedReplies).toBe(6);
    expect(proposal.artifacts.reflection?.repairedReplies).toBe(3);
    expect(proposal.artifacts.reflection?.reports.every((report) => report.repaired && report.attempts === 1)).toBe(true);
  });

  test('replies that parse as they are count no repair', async () => {
    const { proposal } = await propose(scriptedOptimizer());
    expect(proposal.repairedReplies).toBe(0);
  });

  test('hands back the reflection, the ranked edits and the edit reports to keep', async () => {
    const { proposal } = await propose(scriptedOptimizer());
    const { reflection, rankedEdits, editApplyReports } = proposal.artifacts;
    expect(reflection?.reports.map((report) => report.itemIds)).toEqual([['f1', 'f2'], ['f3'], ['s1', 's2']]);
    expect(rankedEdits).toMatchObject({ learningRate: 2, ranked: true, reasoning: 'failures first' });
    expect(rankedEdits?.edits.map((edit) => edit.content)).toEqual(['- failure rule for f1+f2', '- success rule for s1+s2']);
    expect(editApplyReports?.map((report) => report.status)).toEqual(['applied', 'applied']);
  });

  test('gives every stage the skill, the meta skill and the rejected edits it reads', async () => {
    const model = scriptedOptimizer();
    await propose(model);
    for (const call of model.calls) expect(call.prompt).toContain('- Answer the question.');
    expect(model.calls.filter((call) => call.prompt.includes('STRATEGY-NOTES')).map((call) => call.purpose)).toEqual([
      'reflect',
      'reflect',
      'reflect',
      'merge',
      'merge',
      'rank',
    ]);
    // Merging and ranking judge the edits in hand; only the analysts are warned off rejected ones.
    expect(model.calls.filter((call) => call.prompt.includes('REJECTED-EDITS')).map((call) => call.purpose)).toEqual(['reflect', 'reflect', 'reflect']);
  });

  test('no edit from any analyst: no candidate, and no call after the reflection', async () => {
    const model = scriptedOptimizer({ reflect: () => '{"reasoning": "all fine", "edits": []}' });
    const { proposal, progress } = await propose(model);
    expect(proposal).toMatchObject({ outcome: 'no-edits-proposed', editCounts: { proposed: 0 }, optimizerCalls: 3 });
    expect(proposal.learningRate).toBeUndefined();
    expect(proposal.artifacts.reflection?.reports).toHaveLength(3);
    expect(proposal.artifacts.rankedEdits).toBeUndefined();
    expect(progress).toEqual([{ type: 'edits-proposed', stage: 'reflect', count: 0 }]);
  });

  test('a learning rate of 0 keeps no edit: no candidate, and the empty selection is kept', async () => {
    const model = scriptedOptimizer();
    // The cosine schedule reaches its minimum, 0, at the last step.
    const learningRate = { schedule: 'cosine' as const, maxLearningRate: 2, minLearningRate: 0, totalSteps: 3 };
    const { proposal, progress } = await propose(model, { settings: settings({ learningRate }), globalStep: 3 });
    expect(proposal).toMatchObject({ outcome: 'learning-rate-zero', learningRate: 0, editCounts: { proposed: 3, merged: 3, selected: 0 } });
    expect(proposal.artifacts.rankedEdits).toEqual({ learningRate: 0, ranked: false, reasoning: 'the learning rate is 0', edits: [] });
    expect(purposes(model)).not.toContain('rank');
    expect(progress.at(-1)).toEqual({ type: 'edits-proposed', stage: 'rank', count: 0 });
  });

  test('edits that change nothing: the unchanged skill is no candidate, with the reports saying why', async () => {
    const replaceMissing = (call: RecordedCall) =>
      JSON.stringify({ edits: [{ op: 'replace', target: `NOT IN THE SKILL ${trajectoryIds(call.prompt).join('+')}`, content: 'x', rationale: 'r' }] });
    const { proposal } = await propose(scriptedOptimizer({ reflect: replaceMissing }));
    expect(proposal.outcome).toBe('unchanged');
    if (proposal.outcome !== 'unchanged') return;
    expect(proposal.skill).toBe(SKILL);
    expect(proposal.artifacts.editApplyReports?.map((report) => report.status)).toEqual(['unmatched', 'unmatched']);
  });

  test('an unusable merge reply ends the proposal with that stage failure, reported as it happens', async () => {
    const model = scriptedOptimizer({ merge: () => 'no JSON here' });
    const { proposal, progress } = await propose(model);
    expect(proposal.outcome).toBe('stage-failed');
    if (proposal.outcome !== 'stage-failed') return;
    expect(proposal.failure).toMatchObject({ ok: false, stage: 'merge', prompt: 'merge', attempts: 2 });
    // The merge was asked twice (the re-ask included), and nothing ran after it.
    expect(purposes(model)).toEqual(['reflect', 'reflect', 'reflect', 'merge', 'merge']);
    expect(proposal.optimizerCalls).toBe(5);
    expect(proposal.editCounts).toEqual({ proposed: 3 });
    expect(progress.at(-1)).toEqual({ type: 'stage-failed', failure: proposal.failure });
  });

  test('an analyst whose reply is unusable is reported, and the others carry on', async () => {
    const model = scriptedOptimizer({ reflect: (call) => (trajectoryIds(call.prompt).includes('f3') ? 'no JSON here' : analystReply(call)) });
    const { proposal, progress } = await propose(model);
    expect(proposal).toMatchObject({ outcome: 'candidate', editCounts: { proposed: 2 } });
    expect(progress[0]).toMatchObject({ type: 'stage-failed', failure: { stage: 'reflect', prompt: 'reflect-failure' } });
    expect(proposal.artifacts.reflection?.failures).toHaveLength(1);
  });

  test('without a learning-rate limit every merged edit is applied, with no ranking call', async () => {
    const model = scriptedOptimizer();
    const { proposal } = await propose(model, { settings: settings({ learningRateLimitsEdits: false }) });
    expect(purposes(model)).not.toContain('rank');
    expect(proposal).toMatchObject({ outcome: 'candidate', learningRate: 3, editCounts: { selected: 3 } });
  });

  test("an autonomous learning rate is the optimizer's to choose", async () => {
    const model = scriptedOptimizer({ 'lr-decide': () => '{"reasoning": "one at a time", "learningRate": 1}', rank: () => '{"selected": [2]}' });
    const learningRate = { schedule: 'autonomous' as const, maxLearningRate: 2, minLearningRate: 0, totalSteps: 4 };
    const { proposal } = await propose(model, { settings: settings({ learningRate }) });
    expect(purposes(model)).toEqual(['reflect', 'reflect', 'reflect', 'merge', 'merge', 'lr-decide', 'rank']);
    expect(proposal).toMatchObject({
      outcome: 'candidate',
      learningRate: 1,
      selectedEdits: [editSchema.parse({ op: 'append', content: '- failure rule for f3', rationale: 'kept', support: 1, source: 'failure' })],
    });
  });

  test('a full rewrite goes from the trajectories to the update in one call', async () => {
    const model = scriptedOptimizer({ rewrite: () => JSON.stringify({ newSkill: '# Skill\n\n- Answer in one word.\n', changeSummary: ['shorter answers'] }) });
    const { proposal, progress } = await propose(model, { settings: settings({ updateMode: 'full_rewrite_minibatch' }) });
    expect(purposes(model)).toEqual(['rewrite']);
    expect(proposal).toMatchObject({
      outcome: 'candidate',
      skill: '# Skill\n\n- Answer in one word.\n',
      selectedEdits: [],
      editCounts: {},
      optimizerCalls: 1,
      sequentialWaves: 1,
    });
    expect(proposal.learningRate).toBeUndefined();
    expect(proposal.artifacts).toEqual({});
    expect(progress).toEqual([]);
  });

  test("skill-aware reflection puts the analysts' notes into the candidate", async () => {
    const { proposal } = await propose(scriptedOptimizer(), { settings: settings({ appendix: { noteSources: 'both', consolidateThreshold: 0 } }) });
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome !== 'candidate') return;
    expect(proposal.appendixNotes).toEqual(['Re-read the rule for f1+f2.', 'Re-read the rule for f3.', 'Re-read the rule for s1+s2.']);
    expect(readAppendixNotes(proposal.skill)).toEqual(proposal.appendixNotes);
  });

  test('an unusable appendix consolidation is reported and the notes stay as they were', async () => {
    const model = scriptedOptimizer({ 'appendix-consolidate': () => 'no JSON here' });
    const { proposal, progress } = await propose(model, { settings: settings({ appendix: { noteSources: 'both', consolidateThreshold: 2 } }) });
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome !== 'candidate') return;
    expect(progress.filter((event) => event.type === 'stage-failed')).toMatchObject([{ failure: { stage: 'appendix-consolidate' } }]);
    expect(readAppendixNotes(proposal.skill)).toHaveLength(3);
  });
});
