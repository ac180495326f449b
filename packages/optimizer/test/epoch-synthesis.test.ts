import {
  addAppendixNotes,
  comparePairs,
  consolidateAppendix,
  ensureAppendixBlock,
  ensureSlowUpdateBlock,
  readAppendixNotes,
  readSlowUpdateGuidance,
  synthesizeMetaSkill,
  synthesizeSlowUpdate,
  writeSlowUpdateGuidance,
  type ResultPair,
} from '../src/index';
import { createScriptedOptimizerDouble, NEVER_CALLED_OPTIMIZER_DOUBLE, noAbort } from './scripted-optimizer-double';
import { errored, scored } from './fixtures';

const pairs: ResultPair[] = [
  { previous: scored('t1', 1), current: scored('t1', 0) },
  { previous: scored('t2', 0), current: scored('t2', 0) },
  { previous: scored('t3', 0), current: scored('t3', 1) },
  { previous: scored('t4', 1), current: scored('t4', 0.5) },
  { previous: scored('t5', 1), current: errored('t5') },
];

describe('slow update', () => {
  test('pairs are classified; errored pairs are excluded', () => {
    const comparison = comparePairs(pairs);
    expect(comparison.pairs.map((pair) => [pair.id, pair.category])).toEqual([
      ['t1', 'regressed'],
      ['t2', 'persistent-failure'],
      ['t3', 'improved'],
      ['t4', 'stable-success'],
    ]);
    expect(comparison.counts).toEqual({ regressed: 1, 'persistent-failure': 1, improved: 1, 'stable-success': 1 });
    expect(comparison.excludedIds).toEqual(['t5']);
  });

  test('creates the slow-update block when absent and returns the candidate', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '{"reasoning": "t1 regressed", "guidance": "  Always state the unit.  "}' });
    const result = await synthesizeSlowUpdate({ model, signal: noAbort(), previousSkill: '# Old\n', currentSkill: '# Skill\n\n- rule\n', pairs });
    expect(model.calls[0]?.purpose).toBe('slow-update');
    const prompt = model.calls[0]?.prompt ?? '';
    expect(prompt.indexOf('Regressions')).toBeLessThan(prompt.indexOf('Persistent failures'));
    expect(prompt.indexOf('Persistent failures')).toBeLessThan(prompt.indexOf('Improvements'));
    expect(prompt).toContain('(none yet)');
    expect(result.ok && result.value.skill).toBe('# Skill\n\n- rule\n\n<!-- SLOW_UPDATE_START -->\nAlways state the unit.\n<!-- SLOW_UPDATE_END -->\n');
    expect(result.ok && result.value.comparison.excludedIds).toEqual(['t5']);
  });

  test('rewrites an existing block in place, leaving the rest byte for byte', async () => {
    const skill =
      '# Skill\n\n- rule\n\n<!-- SLOW_UPDATE_START -->\nold guidance\n<!-- SLOW_UPDATE_END -->\n\n\n<!-- APPENDIX_START -->\n## Execution notes\n- n\n<!-- APPENDIX_END -->\n';
    const model = createScriptedOptimizerDouble({ reply: () => '{"guidance": "new guidance"}' });
    const result = await synthesizeSlowUpdate({ model, signal: noAbort(), previousSkill: skill, currentSkill: skill, pairs });
    expect(model.calls[0]?.prompt).toContain('old guidance');
    expect(result.ok && result.value.skill).toBe(skill.replace('old guidance', 'new guidance'));
  });

  test('no scored pairs: no call, an explicit skip', async () => {
    const result = await synthesizeSlowUpdate({
      model: NEVER_CALLED_OPTIMIZER_DOUBLE,
      signal: noAbort(),
      previousSkill: 'a',
      currentSkill: 'b',
      pairs: [pairs[4] as ResultPair],
    });
    expect(result).toMatchObject({ ok: true, attempts: 0, value: { skill: 'b', skipped: 'no scored pairs to compare' } });
  });

  test('block helpers', () => {
    expect(ensureSlowUpdateBlock('# Skill\n\n- rule\n')).toBe('# Skill\n\n- rule\n\n<!-- SLOW_UPDATE_START -->\n<!-- SLOW_UPDATE_END -->\n');
    const withGuidance = writeSlowUpdateGuidance('# S\n', 'g');
    expect(readSlowUpdateGuidance(withGuidance)).toBe('g');
    expect(ensureSlowUpdateBlock(withGuidance)).toBe(withGuidance);
    expect(() => writeSlowUpdateGuidance('# S\n', 'x <!-- SLOW_UPDATE_END -->')).toThrow(/marker/);
  });
});

describe('meta skill', () => {
  test('makes no call when no later step reads it', async () => {
    const result = await synthesizeMetaSkill({
      model: NEVER_CALLED_OPTIMIZER_DOUBLE,
      signal: noAbort(),
      previousSkill: 'a',
      currentSkill: 'b',
      previousMetaSkill: 'old notes',
      pairs,
      readByLaterSteps: false,
    });
    expect(result).toMatchObject({ ok: true, attempts: 0, value: { metaSkill: 'old notes', skipped: 'no later step reads the meta skill' } });
  });

  test('returns the new strategy notes as text', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '<think>{hmm}</think>{"reasoning": "r", "metaSkill": "Prefer short procedural rules."}' });
    const result = await synthesizeMetaSkill({
      model,
      signal: noAbort(),
      previousSkill: 'a',
      currentSkill: 'b',
      previousMetaSkill: '',
      pairs,
      readByLaterSteps: true,
    });
    expect(model.calls[0]?.purpose).toBe('meta-skill');
    expect(result.ok && result.value).toEqual({ metaSkill: 'Prefer short procedural rules.', reasoning: 'r' });
  });
});

describe('skill-aware appendix', () => {
  const base = '# Skill\n\n- rule\n\n<!-- SLOW_UPDATE_START -->\ng\n<!-- SLOW_UPDATE_END -->\n';

  test('notes are routed into the appendix block, deduplicated, and the rest is untouched', () => {
    const first = addAppendixNotes(base, ['Go to the fridge for ice water.', 'No stop token.', '  ']);
    expect(first.skill.startsWith(base)).toBe(true);
    expect(readAppendixNotes(first.skill)).toEqual(['Go to the fridge for ice water.', 'No stop token.']);
    const second = addAppendixNotes(first.skill, ['go to the fridge for ice water', 'Check the sheet range.']);
    expect(second.added).toEqual(['Check the sheet range.']);
    expect(readAppendixNotes(second.skill)).toEqual(['Go to the fridge for ice water.', 'No stop token.', 'Check the sheet range.']);
    expect(second.skill.split('<!-- APPENDIX_START -->')).toHaveLength(2);
    expect(ensureAppendixBlock('# S\n')).toBe('# S\n\n<!-- APPENDIX_START -->\n## Execution notes\n<!-- APPENDIX_END -->\n');
  });

  test('consolidation runs only above the threshold', async () => {
    const skill = addAppendixNotes(base, ['a one', 'b two', 'c three']).skill;
    const below = await consolidateAppendix({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill, threshold: 3 });
    expect(below).toMatchObject({ ok: true, attempts: 0, value: { consolidated: false } });
    const model = createScriptedOptimizerDouble({ reply: () => '{"notes": ["a one and b two", "c three"]}' });
    const above = await consolidateAppendix({ model, signal: noAbort(), skill, threshold: 2 });
    expect(model.calls[0]?.purpose).toBe('appendix-consolidate');
    expect(above.ok && above.value.notes).toEqual(['a one and b two', 'c three']);
    expect(above.ok && readAppendixNotes(above.value.skill)).toEqual(['a one and b two', 'c three']);
  });

  test('a consolidation that does not shrink the list fails the stage', async () => {
    const skill = addAppendixNotes(base, ['a one', 'b two', 'c three']).skill;
    const model = createScriptedOptimizerDouble({ reply: () => '{"notes": ["a", "b", "c", "d"]}' });
    const result = await consolidateAppendix({ model, signal: noAbort(), skill, threshold: 2 });
    expect(result).toMatchObject({ ok: false, stage: 'appendix-consolidate', attempts: 2 });
  });
});
