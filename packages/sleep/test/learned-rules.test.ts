import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { LEARNED_BLOCK_BANNER, LEARNED_BLOCK_HEADING, locateLearnedBlock, readLearnedRules, renderLearnedBlock, writeLearnedRules } from '../src/index';

const START = '<!-- skillopt-sleep:learned start -->';
const END = '<!-- skillopt-sleep:learned end -->';
const UPSTREAM_START = '<!-- SKILLOPT-SLEEP:LEARNED START -->';
const UPSTREAM_END = '<!-- SKILLOPT-SLEEP:LEARNED END -->';

function errorOf(action: () => unknown): SkillOptError {
  try {
    action();
  } catch (error) {
    if (error instanceof SkillOptError) return error;
    throw error;
  }
  throw new Error('expected a SkillOptError');
}

describe('the learned block layout', () => {
  test('start marker, heading, blank line, banner, blank line, one bullet per rule, end marker', () => {
    expect(renderLearnedBlock(['cite sources', 'answer in English'])).toBe(
      `${START}\n${LEARNED_BLOCK_HEADING}\n\n${LEARNED_BLOCK_BANNER}\n\n- cite sources\n- answer in English\n${END}`,
    );
  });

  test('a document without a block gets one at its end after exactly one blank line', () => {
    const block = renderLearnedBlock(['cite sources']);
    expect(writeLearnedRules('# Skill\n\nBody.\n', ['cite sources'])).toBe(`# Skill\n\nBody.\n\n${block}\n`);
    expect(writeLearnedRules('# Skill\nBody.', ['cite sources'])).toBe(`# Skill\nBody.\n\n${block}\n`);
    expect(writeLearnedRules('# Skill\n\n', ['cite sources'])).toBe(`# Skill\n\n${block}\n`);
    expect(writeLearnedRules('', ['cite sources'])).toBe(`${block}\n`);
  });

  test('no rules and no block leaves the document as it is', () => {
    expect(writeLearnedRules('# Skill\n', [])).toBe('# Skill\n');
  });
});

describe('reading rules', () => {
  test('only bullet lines inside the block are rules, without their "- " prefix', () => {
    const document = `- outside\n${START}\n## heading\n\nbanner\n\n- first rule\n- second rule  \nnot a rule\n${END}\n`;
    expect(readLearnedRules(document)).toEqual(['first rule', 'second rule']);
    expect(readLearnedRules('# no block\n- outside\n')).toEqual([]);
  });

  test('the original spelling of the markers is read too', () => {
    expect(readLearnedRules(`# Skill\n\n${UPSTREAM_START}\n## Learned preferences & procedures\n\n- run tests\n${UPSTREAM_END}\n`)).toEqual(['run tests']);
  });

  test('a rule starting with dashes keeps them (fixes §9 item 14: "--no-verify" became "no-verify")', () => {
    const document = writeLearnedRules('# Skill\n', ['--no-verify is forbidden', '- - nested dash']);
    expect(readLearnedRules(document)).toEqual(['--no-verify is forbidden', '- - nested dash']);
  });
});

describe('writing rules where the block stands', () => {
  const handWritten = '# Skill\n\n\n\nKeep   spacing.\n\n\n';
  const after = '\n\n\n## After the block\n\ntrailing text   \n\n\n';

  test('text before and after the block is kept byte for byte (fixes §9 item 14: no whole-document blank-line collapse)', () => {
    const document = `${handWritten}${renderLearnedBlock(['old rule'])}${after}`;
    const written = writeLearnedRules(document, ['new rule', 'another']);
    expect(written).toBe(`${handWritten}${renderLearnedBlock(['new rule', 'another'])}${after}`);
  });

  test('a block in the middle stays in the middle instead of moving to the end', () => {
    const document = `# Top\n${START}\n- a\n${END}\n# Bottom\n`;
    expect(writeLearnedRules(document, ['b'])).toBe(`# Top\n${renderLearnedBlock(['b'])}\n# Bottom\n`);
  });

  test('an original block is rewritten in place in our spelling', () => {
    const document = `# Skill\n\n${UPSTREAM_START}\n- run tests\n${UPSTREAM_END}\n\nAfter.\n`;
    const written = writeLearnedRules(document, readLearnedRules(document));
    expect(written).toBe(`# Skill\n\n${renderLearnedBlock(['run tests'])}\n\nAfter.\n`);
    expect(locateLearnedBlock(written)?.spelling).toBe('ours');
  });

  test('round trip: writing what was read changes nothing, and reading what was written gives the rules', () => {
    const rules = ['--dry-run first', 'cite sources', 'prefer `pnpm` over `npm`'];
    const once = writeLearnedRules(handWritten, rules);
    expect(readLearnedRules(once)).toEqual(rules);
    expect(writeLearnedRules(once, readLearnedRules(once))).toBe(once);
  });

  test('rules are trimmed and a repeat (ignoring case and spacing) is dropped', () => {
    expect(readLearnedRules(writeLearnedRules('', ['  Cite sources ', 'cite   SOURCES', 'other']))).toEqual(['Cite sources', 'other']);
  });

  test('an empty rule, a multi-line rule or a rule carrying a marker is refused', () => {
    expect(() => writeLearnedRules('', [' '])).toThrow(SkillOptError);
    expect(() => writeLearnedRules('', ['one\ntwo'])).toThrow('one line');
    expect(() => writeLearnedRules('', [`x ${END}`])).toThrow('marker');
  });
});

describe('malformed blocks are errors naming the line, never truncations', () => {
  test('an unterminated start marker (fixes §9 item 14: it truncated the rest of the document)', () => {
    const document = `# Skill\n\nIntro.\n${START}\n- rule\n\n## Hand-written section\nmust survive\n`;
    const error = errorOf(() => writeLearnedRules(document, ['x']));
    expect(error.code).toBe(ERROR_CODES.configInvalid);
    expect(error.category).toBe('user');
    expect(error.message).toContain('line 4');
    expect(error.message).toContain(END);
    expect(() => readLearnedRules(document)).toThrow('line 4');
  });

  test('an unterminated original start marker', () => {
    expect(() => readLearnedRules(`a\nb\n${UPSTREAM_START}\n- rule\n`)).toThrow(/line 3.*LEARNED END/);
  });

  test('an end marker without a start, mixed spellings and a second block', () => {
    expect(() => readLearnedRules(`# Skill\n${END}\n`)).toThrow('line 2');
    expect(() => readLearnedRules(`${START}\n- a\n${UPSTREAM_END}\n`)).toThrow('line 3');
    expect(() => readLearnedRules(`${START}\n${END}\n\n${UPSTREAM_START}\n${UPSTREAM_END}\n`)).toThrow(/line 4.*second/);
  });
});
