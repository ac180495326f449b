import { type EditInput, editSchema } from '@skillopt/contract';
import { applyLearnedEdits, readLearnedRules, renderLearnedBlock, writeLearnedRules } from '../src/index';

const BEFORE = '# Release skill\n\n\n\nShip   carefully.\n\n\n';
const AFTER = '\n\n\n## Notes kept by hand\n\ntrailing   \n';

function skillWith(rules: string[]): string {
  return `${BEFORE}${renderLearnedBlock(rules)}${AFTER}`;
}

function apply(document: string, ...inputs: EditInput[]) {
  return applyLearnedEdits(
    document,
    inputs.map((input) => editSchema.parse(input)),
  );
}

describe('applyLearnedEdits', () => {
  test('the original "add" is an append: the rule goes on the next bullet line, verbatim', () => {
    const result = apply(skillWith(['run the tests']), { op: 'add', content: '--no-verify is never used' });
    expect(result.reports.map((report) => report.status)).toEqual(['applied']);
    expect(readLearnedRules(result.document)).toEqual(['run the tests', '--no-verify is never used']);
    expect(result.document).toBe(skillWith(['run the tests', '--no-verify is never used']));
  });

  test('an append to a document without a block creates it at the end and keeps the text before it', () => {
    const result = apply('# Skill\n\nBody.\n', { op: 'append', content: 'cite sources' });
    expect(result.document).toBe(writeLearnedRules('# Skill\n\nBody.\n', ['cite sources']));
  });

  test('adding a rule already present, ignoring case and spacing, is unmatched and changes nothing', () => {
    const document = skillWith(['Run the tests']);
    const result = apply(document, { op: 'add', content: '  run   THE tests ' });
    expect(result.reports[0]?.status).toBe('unmatched');
    expect(result.appliedCount).toBe(0);
    expect(result.document).toBe(document);
  });

  test('a blank add is invalid', () => {
    expect(apply(skillWith([]), { op: 'add', content: '   ' }).reports[0]?.status).toBe('invalid');
  });

  test('delete removes the one rule its anchor falls in, keeping the rest byte for byte', () => {
    const result = apply(skillWith(['run the tests', 'tag the release', 'write the changelog']), { op: 'delete', target: 'tag the' });
    expect(result.reports[0]?.status).toBe('applied');
    expect(result.document).toBe(skillWith(['run the tests', 'write the changelog']));
  });

  test('an anchor matching more than one rule is ambiguous and deletes nothing (fixes §9 item 14: anchor "e" deleted every rule)', () => {
    const document = skillWith(['run the tests', 'tag the release']);
    const result = apply(document, { op: 'delete', target: 'e' });
    expect(result.reports[0]?.status).toBe('ambiguous');
    expect(result.document).toBe(document);
    expect(apply(document, { op: 'replace', target: 'the', content: 'x' }).reports[0]?.status).toBe('ambiguous');
  });

  test("the original's delete without an anchor uses its content as the anchor", () => {
    const result = applyLearnedEdits(skillWith(['run the tests', 'tag the release']), [{ op: 'delete', content: 'tag the', rationale: '', support: 0 }]);
    expect(readLearnedRules(result.document)).toEqual(['run the tests']);
  });

  test('an anchor that is not in the block is unmatched, even when it occurs in the hand-written text', () => {
    const document = skillWith(['run the tests']);
    const result = apply(document, { op: 'delete', target: 'Ship' });
    expect(result.reports[0]?.status).toBe('unmatched');
    expect(result.document).toBe(document);
  });

  test('replace rewrites the one rule its anchor falls in; a replace that changes nothing is unmatched', () => {
    const document = skillWith(['run the tests', 'tag the release']);
    const replaced = apply(document, { op: 'replace', target: 'run the', content: '--run the full suite' });
    expect(readLearnedRules(replaced.document)).toEqual(['--run the full suite', 'tag the release']);
    expect(replaced.document).toBe(skillWith(['--run the full suite', 'tag the release']));
    const same = apply(document, { op: 'replace', target: 'tag', content: 'tag the release' });
    expect(same.reports[0]?.status).toBe('unmatched');
    expect(same.document).toBe(document);
  });

  test('replacing a rule with another rule already present is unmatched', () => {
    expect(apply(skillWith(['a one', 'b two']), { op: 'replace', target: 'a one', content: 'B TWO' }).reports[0]?.status).toBe('unmatched');
  });

  test('insert_after places the rule after the rule its target falls in', () => {
    const result = apply(skillWith(['first', 'third']), { op: 'insert_after', target: 'fir', content: 'second' });
    expect(readLearnedRules(result.document)).toEqual(['first', 'second', 'third']);
  });

  test('multi-line content or anchors, and content carrying a marker, are invalid', () => {
    const document = skillWith(['a rule']);
    const results = apply(
      document,
      { op: 'add', content: 'one\ntwo' },
      { op: 'delete', target: 'a\nrule' },
      { op: 'add', content: 'x <!-- skillopt-sleep:learned end -->' },
      { op: 'add', content: 'y <!-- APPENDIX_START -->' },
    );
    expect(results.reports.map((report) => report.status)).toEqual(['invalid', 'invalid', 'invalid', 'invalid']);
    expect(results.document).toBe(document);
  });

  test('edits apply in order, each to the rules the previous left, with one report per edit', () => {
    const result = apply(
      skillWith(['run the tests']),
      { op: 'add', content: 'tag the release' },
      { op: 'delete', target: 'run the' },
      { op: 'delete', target: 'run the' },
      { op: 'replace', target: 'tag', content: 'tag and sign the release' },
    );
    expect(result.reports.map((report) => [report.index, report.status])).toEqual([
      [0, 'applied'],
      [1, 'applied'],
      [2, 'unmatched'],
      [3, 'applied'],
    ]);
    expect(result.appliedCount).toBe(3);
    expect(result.document).toBe(skillWith(['tag and sign the release']));
  });

  test('deleting the last rule keeps an empty block in place', () => {
    const result = apply(skillWith(['only rule']), { op: 'delete', target: 'only rule' });
    expect(result.document).toBe(skillWith([]));
    expect(readLearnedRules(result.document)).toEqual([]);
  });

  test('an original block is edited in place and rewritten in our spelling', () => {
    const document = '# Skill\n\n<!-- SKILLOPT-SLEEP:LEARNED START -->\n- run tests\n<!-- SKILLOPT-SLEEP:LEARNED END -->\n\nAfter.\n';
    const result = apply(document, { op: 'add', content: 'tag releases' });
    expect(result.document).toBe(`# Skill\n\n${renderLearnedBlock(['run tests', 'tag releases'])}\n\nAfter.\n`);
  });

  test('an unterminated start marker is an error, not a truncation', () => {
    expect(() => apply('# Skill\n<!-- skillopt-sleep:learned start -->\n- a\n\nHand text\n', { op: 'add', content: 'b' })).toThrow('line 2');
  });
});
