import { createHardWorld, HARD_WORLD_CATALOGUE, HARMFUL_RULE_PHRASINGS, USELESS_RULE_PHRASINGS, type HarmKind } from '../src/index';
import { CALM_SETTINGS, hardWorldItems } from './hard-world-helpers';
import { GOOD_SKILL, INITIAL_SKILL } from './helpers';

const world = createHardWorld(CALM_SETTINGS, hardWorldItems(2));
const ANSWER_HARMS: HarmKind[] = ['verbosity', 'missing-tag', 'malformed-tag', 'number-words', 'date-format', 'unit-appended', 'truncation'];

describe('how the hard world reads a skill', () => {
  it('has at most 16 concepts, each with its own id', () => {
    expect(HARD_WORLD_CATALOGUE.length).toBeLessThanOrEqual(16);
    expect(new Set(HARD_WORLD_CATALOGUE.map((concept) => concept.id)).size).toBe(HARD_WORLD_CATALOGUE.length);
  });

  it.each(HARD_WORLD_CATALOGUE.map((concept) => [concept.id, concept] as const))(
    'reads every wording of %s as that concept alone, strong or vague',
    (id, concept) => {
      for (const phrasing of concept.strongPhrasings)
        expect(world.readSkill(`- ${phrasing}`)).toEqual({
          concepts: [{ id, strength: 1 }],
          overSpecificRules: 0,
          harmfulRules: 0,
          uselessRules: 0,
          ruleCount: 1,
          compliance: 1,
        });
      for (const phrasing of concept.vaguePhrasings)
        expect(world.readSkill(`- ${phrasing}`)).toEqual({
          concepts: [{ id, strength: 0.5 }],
          overSpecificRules: 0,
          harmfulRules: 0,
          uselessRules: 0,
          ruleCount: 1,
          compliance: 1,
        });
    },
  );

  it("reads the demo world's harmful rules as harmful, and its useless ones as useless", () => {
    for (const kind of ANSWER_HARMS)
      for (const phrasing of HARMFUL_RULE_PHRASINGS[kind])
        expect(world.readSkill(`- ${phrasing}`)).toMatchObject({ concepts: [], harmfulRules: 1, ruleCount: 1 });
    for (const phrasing of USELESS_RULE_PHRASINGS) expect(world.readSkill(`- ${phrasing}`)).toMatchObject({ concepts: [], uselessRules: 1, ruleCount: 1 });
  });

  it('reads headings and prose that state no rule as nothing, and the demo good skill as seven concepts', () => {
    expect(world.readSkill(INITIAL_SKILL).ruleCount).toBe(0);
    const reading = world.readSkill(GOOD_SKILL);
    expect(reading.concepts.map((concept) => concept.id)).toEqual(HARD_WORLD_CATALOGUE.map((concept) => concept.id).filter((id) => id !== 'full-names'));
    expect(reading).toMatchObject({ ruleCount: 7, compliance: 0.94 });
  });

  it('reads an over-specific rule with a dictated answer, or one that defers to the reference', () => {
    expect(world.readSkill('- When the question is "How many towers does Arvandia 1 have?", answer "3".').overSpecificRules).toBe(1);
    expect(
      world.readSkill('- When the question is "How many towers does Arvandia 1 have?", answer it exactly as the reference answer.').overSpecificRules,
    ).toBe(1);
  });
});
