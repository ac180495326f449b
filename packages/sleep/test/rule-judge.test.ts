import { SkillOptError } from '@skillopt/contract/errors';
import { scoreRuleJudge } from '../src/judge/rule-judge';
import type { RuleCheck } from '../src/tasks/task-record';

const passes = (check: RuleCheck, response: string, toolsCalled: string[] = []) =>
  scoreRuleJudge({ kind: 'rule', checks: [check] }, response, toolsCalled).hard === 1;

describe('section_present', () => {
  it.each(['## Key Risks', '**Key Risks:**', 'Key Risks: something', '### 1. Key Risks', 'intro\n## Key Risks  \nbody'])('passes on %j', (text) => {
    expect(passes({ op: 'section_present', arg: 'Key Risks' }, text)).toBe(true);
  });
  it('fails when text follows the name on a heading line', () => {
    expect(passes({ op: 'section_present', arg: 'Key Risks' }, '### 1. Key Risks (Риски) — overview')).toBe(false);
  });
});

describe('section_contains', () => {
  it.each(['### 1. Key Risks', '### 1. Key Risks (Риски)', '### Key Risks — likelihood and impact', '# Key Risks', '###### Key Risks', '   ## Key Risks'])(
    'passes on %j',
    (text) => {
      expect(passes({ op: 'section_contains', arg: 'Key Risks' }, text)).toBe(true);
    },
  );
  it.each([
    '    ## Key Risks',
    '\t## Key Risks',
    '####### Key Risks',
    '##Key Risks',
    'Key Risks in the body',
    '**Key Risks:**',
    'Key Risks: none',
    'Key Risks\n---------',
    '> ## Key Risks',
  ])('fails on %j', (text) => {
    expect(passes({ op: 'section_contains', arg: 'Key Risks' }, text)).toBe(false);
  });
  it('matches a name with pattern characters literally and case-folded', () => {
    expect(passes({ op: 'section_contains', arg: 'Key Risks [P1].*' }, '## KEY RISKS [P1].* — overview')).toBe(true);
    expect(passes({ op: 'section_contains', arg: 'Key Risks [P1].*' }, '## Key Risks P1 anything')).toBe(false);
    expect(passes({ op: 'section_contains', arg: 'Straße' }, '## STRASSE')).toBe(true);
  });
});

describe('regex', () => {
  it('searches the answer', () => {
    expect(passes({ op: 'regex', arg: '\\d+\\.\\d+' }, 'see 7.4 for details')).toBe(true);
    const missing = scoreRuleJudge({ kind: 'rule', checks: [{ op: 'regex', arg: 'zzz' }] }, 'see 7.4');
    expect(missing.hard).toBe(0);
    expect(missing.rationale).not.toContain('invalid regex');
  });
  it('fails a pattern that does not compile, and says so', () => {
    const judgement = scoreRuleJudge({ kind: 'rule', checks: [{ op: 'regex', arg: 'foo(' }] }, 'foo(');
    expect(judgement.hard).toBe(0);
    expect(judgement.rationale).toContain('invalid regex');
    expect(judgement.failures[0]).toMatchObject({ op: 'regex', arg: 'foo(' });
  });
  it("takes Python's leading inline flags", () => {
    expect(passes({ op: 'regex', arg: '(?i)key risks' }, 'KEY RISKS')).toBe(true);
  });
});

describe('character bounds', () => {
  it('counts characters against max_chars and min_chars', () => {
    expect(passes({ op: 'max_chars', arg: 50 }, 'x'.repeat(10))).toBe(true);
    expect(passes({ op: 'max_chars', arg: 50 }, 'x'.repeat(100))).toBe(false);
    expect(passes({ op: 'max_chars', arg: 5 }, 'abcdef')).toBe(false);
    expect(passes({ op: 'min_chars', arg: 5 }, 'abcdef')).toBe(true);
    expect(passes({ op: 'min_chars', arg: 50 }, 'abcdef')).toBe(false);
  });
  it('counts code points, as the original did, and reads the bound through characterBound', () => {
    expect(passes({ op: 'max_chars', arg: ' 3 ' }, '😀😀😀')).toBe(true);
    expect(passes({ op: 'max_chars', arg: 'ten' }, '')).toBe(false);
  });
});

describe('contains and not_contains', () => {
  it('compare without case', () => {
    expect(passes({ op: 'contains', arg: 'Key Risks' }, 'the KEY RISKS section')).toBe(true);
    expect(passes({ op: 'not_contains', arg: 'TODO' }, 'all done')).toBe(true);
    expect(passes({ op: 'not_contains', arg: 'TODO' }, 'still TODO')).toBe(false);
  });
  it('fail on a blank argument instead of matching everything', () => {
    expect(passes({ op: 'contains', arg: '' }, 'anything')).toBe(false);
    expect(passes({ op: 'not_contains', arg: null }, 'anything')).toBe(false);
  });
});

describe('no_refusal', () => {
  const refusals = [
    'Cannot complete this task. The file is missing.',
    'I cannot help with that.',
    "I'm unable to do this.",
    '> I cannot do this.',
    '- I cannot do this.',
    '1. I cannot do this.',
    "**Sorry, I can't** do this.",
    `${'> '.repeat(100)}I cannot do this.`,
    `${'> '.repeat(350)}I cannot do this.`,
    '',
    '   ',
    `I cannot help. ${'İ'.repeat(300)}`,
    'I can’t do that.',
  ];
  it.each(refusals.map((text) => [text.slice(0, 40), text]))('fails a bare refusal: %j', (_label, text) => {
    expect(passes({ op: 'no_refusal' }, text)).toBe(false);
  });
  it('passes an answer, and a long refusal that explains what was tried', () => {
    expect(passes({ op: 'no_refusal' }, 'Here is the context you asked for: the build uses tsup.')).toBe(true);
    expect(passes({ op: 'no_refusal' }, 'Sorry, I can help with that. Here it is.')).toBe(true);
    expect(passes({ op: 'no_refusal' }, `I cannot find the config. I searched ${'src/config, '.repeat(60)}and found nothing.`)).toBe(true);
  });
});

describe('tool_called', () => {
  it('passes on a tool the replay really called, whatever the case', () => {
    expect(passes({ op: 'tool_called', arg: 'search' }, 'nope', ['Search'])).toBe(true);
  });
  it('fails on a self-reported TOOL_CALL marker, which the original accepted (weak spot §9.13)', () => {
    expect(passes({ op: 'tool_called', arg: 'search' }, 'TOOL_CALL: search')).toBe(false);
  });
});

describe('scoreRuleJudge', () => {
  it('scores no checks as nothing passed', () => {
    expect(scoreRuleJudge({ kind: 'rule', checks: [] }, 'x')).toEqual({ hard: 0, soft: 0, rationale: 'no checks', failures: [] });
  });
  it('gives the share of passed checks and lists the failed ones as text and as data', () => {
    const judgement = scoreRuleJudge(
      {
        kind: 'rule',
        checks: [{ op: 'contains', arg: 'a, b' }, { op: 'max_chars', arg: 3 }, { op: 'no_refusal' }],
      },
      'nothing here',
    );
    expect(judgement.hard).toBe(0);
    expect(judgement.soft).toBeCloseTo(1 / 3);
    expect(judgement.rationale).toBe('failed: contains=a, b, max_chars=3');
    expect(judgement.failures).toEqual([
      { op: 'contains', arg: 'a, b' },
      { op: 'max_chars', arg: 3 },
    ]);
    expect(scoreRuleJudge({ kind: 'rule', checks: [{ op: 'no_refusal' }] }, 'fine').rationale).toBe('all checks passed');
  });
  it('throws a config error naming the nearest operator for an unknown one, which the original passed (weak spot §9.13)', () => {
    const score = () => scoreRuleJudge({ kind: 'rule', checks: [{ op: 'contians', arg: 'x' }] }, 'x');
    expect(score).toThrow(SkillOptError);
    expect(score).toThrow(/"contians".*Did you mean "contains"\?/);
    expect(() => scoreRuleJudge({ kind: 'rule', checks: [{ op: 'no_such_op' }] }, 'x')).toThrow(/not a rule check operator/);
  });
});
