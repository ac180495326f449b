import { editSchema, type Edit, type EditInput } from '@skillopt/contract';
import { applyEdits, findProtectedRegions } from '../src/index';

const edit = (input: EditInput): Edit => editSchema.parse(input);
const S =
  '# QA Skill\n\n## Rules\n- Prefer shortest answer span.\n- Use clue wording to constrain answer type.\n\n' +
  '<!-- SLOW_UPDATE_START -->\nSome slow update guidance here.\n<!-- SLOW_UPDATE_END -->\n';

function applyOne(skill: string, input: EditInput) {
  const result = applyEdits(skill, [edit(input)]);
  const report = result.reports[0];
  if (report === undefined) throw new Error('no report');
  return { skill: result.skill, status: report.status, reason: report.reason };
}

describe('edit engine: the original vectors where we agree (§2.5)', () => {
  test('append goes before the first protected region', () => {
    const result = applyOne(S, { op: 'append', content: '- New rule appended.' });
    expect(result.status).toBe('applied');
    expect(result.skill).toBe(
      '# QA Skill\n\n## Rules\n- Prefer shortest answer span.\n- Use clue wording to constrain answer type.\n\n- New rule appended.\n\n' +
        '<!-- SLOW_UPDATE_START -->\nSome slow update guidance here.\n<!-- SLOW_UPDATE_END -->\n',
    );
  });

  test('replace of part of a line', () => {
    const result = applyOne(S, { op: 'replace', target: 'Prefer shortest answer span.', content: 'Prefer the exact minimal span.' });
    expect(result.status).toBe('applied');
    expect(result.skill).toContain('- Prefer the exact minimal span.\n- Use clue');
  });

  test.each([
    { op: 'replace', target: 'Some slow update guidance here.', content: 'x' },
    { op: 'delete', target: 'Some slow update guidance here.' },
  ] as EditInput[])('a target inside the slow-update block is protected (%o)', (input) => {
    const result = applyOne(S, input);
    expect(result.status).toBe('protected');
    expect(result.skill).toBe(S);
  });

  test('an unknown replace target is unmatched and changes nothing', () => {
    const result = applyOne(S, { op: 'replace', target: 'MISSING', content: 'x' });
    expect(result.status).toBe('unmatched');
    expect(result.reason).toContain('MISSING');
    expect(result.skill).toBe(S);
  });

  test('insert_after on the last line without a line break', () => {
    expect(applyOne('# A\nline1', { op: 'insert_after', target: 'line1', content: 'X' }).skill).toBe('# A\nline1\nX\n');
  });

  test('append to a skill without protected regions', () => {
    expect(applyOne('# A\nline1', { op: 'append', content: 'X' }).skill).toBe('# A\nline1\n\nX\n');
  });

  test('edits apply in order, each to the result of the previous ones', () => {
    const result = applyEdits('# A\nline1', [
      edit({ op: 'replace', target: 'line1', content: 'LINE' }),
      edit({ op: 'delete', target: 'line1' }),
      edit({ op: 'insert_after', target: 'LINE', content: 'after' }),
    ]);
    expect(result.skill).toBe('# A\nLINE\nafter\n');
    expect(result.reports.map((report) => report.status)).toEqual(['applied', 'unmatched', 'applied']);
    expect(result.reports.map((report) => report.index)).toEqual([0, 1, 2]);
    expect(result.appliedCount).toBe(2);
  });

  test('both protected regions coexist and append lands before the earliest', () => {
    const skill = '# A\n\nbody\n\n<!-- APPENDIX_START -->\n## Notes\n- n\n<!-- APPENDIX_END -->\n\n<!-- SLOW_UPDATE_START -->\ng\n<!-- SLOW_UPDATE_END -->\n';
    const result = applyOne(skill, { op: 'append', content: '- rule' });
    expect(result.skill).toBe(`# A\n\nbody\n\n- rule\n\n${skill.slice(skill.indexOf('<!-- APPENDIX_START'))}`);
    expect(applyOne(skill, { op: 'delete', target: '- n' }).status).toBe('protected');
  });
});

describe('edit engine: deliberate differences from the original', () => {
  test('insert_after puts the text on the next line with no blank line (original left one)', () => {
    const result = applyOne(S, { op: 'insert_after', target: '## Rules', content: '- Inserted rule.' });
    expect(result.skill).toContain('## Rules\n- Inserted rule.\n- Prefer shortest');
  });

  test('insert_after with an unknown anchor is unmatched, not turned into an append', () => {
    const result = applyOne(S, { op: 'insert_after', target: 'NONEXISTENT', content: '- Fallback rule.' });
    expect(result.status).toBe('unmatched');
    expect(result.skill).toBe(S);
  });

  test('deleting a whole line removes its line break (original left a blank line)', () => {
    const result = applyOne(S, { op: 'delete', target: '- Use clue wording to constrain answer type.' });
    expect(result.status).toBe('applied');
    expect(result.skill).toBe(
      '# QA Skill\n\n## Rules\n- Prefer shortest answer span.\n\n<!-- SLOW_UPDATE_START -->\nSome slow update guidance here.\n<!-- SLOW_UPDATE_END -->\n',
    );
  });

  test('replacing a line including its line break keeps the lines apart (original merged them)', () => {
    const result = applyOne(S, { op: 'replace', target: '- Prefer shortest answer span.\n', content: '- Prefer exact span.\n' });
    expect(result.skill).toContain('- Prefer exact span.\n- Use clue wording');
  });

  test('insert_after of a partial anchor inserts after its whole line and keeps indentation', () => {
    const result = applyOne(S, { op: 'insert_after', target: 'Prefer shortest', content: '  - sub rule  ' });
    expect(result.skill).toContain('- Prefer shortest answer span.\n  - sub rule\n- Use clue');
  });

  test('append trims surrounding blank lines and trailing spaces, but keeps indentation', () => {
    expect(applyOne('# A\n\n\n', { op: 'append', content: '\n  X  \n' }).skill).toBe('# A\n\n  X\n');
  });

  test('a target that occurs more than once is ambiguous and nothing changes', () => {
    const skill = '# A\n- check units\n- report: check units\n';
    const result = applyOne(skill, { op: 'replace', target: 'check units', content: 'verify units' });
    expect(result.status).toBe('ambiguous');
    expect(result.reason).toContain('2 times');
    expect(result.skill).toBe(skill);
  });

  test('a target that starts in the body and runs into a protected region is refused', () => {
    const target = 'constrain answer type.\n\n<!-- SLOW_UPDATE_START -->';
    for (const op of ['delete', 'replace'] as const) {
      const result = applyOne(S, op === 'delete' ? { op, target } : { op, target, content: 'x' });
      expect(result.status).toBe('protected');
      expect(result.skill).toBe(S);
    }
  });

  test('every match is checked: one occurrence inside a region is enough to refuse', () => {
    const skill = '# A\n- keep it short\n\n<!-- SLOW_UPDATE_START -->\n- keep it short\n<!-- SLOW_UPDATE_END -->\n';
    expect(applyOne(skill, { op: 'delete', target: '- keep it short' }).status).toBe('protected');
  });

  test('content with a marker string is refused', () => {
    const result = applyOne(S, { op: 'append', content: 'x\n<!-- APPENDIX_START -->' });
    expect(result.status).toBe('invalid');
    expect(result.reason).toContain('<!-- APPENDIX_START -->');
    expect(result.skill).toBe(S);
  });

  test('an empty target, empty content and unknown operation are invalid', () => {
    expect(applyEdits(S, [{ op: 'delete', target: '', rationale: '', support: 0 }]).reports[0]?.status).toBe('invalid');
    expect(applyOne(S, { op: 'append', content: '   ' }).status).toBe('invalid');
    expect(applyOne(S, { op: 'replace', target: '## Rules', content: '\n' }).status).toBe('invalid');
    const unknown = { op: 'rewrite', rationale: '', support: 0 } as unknown as Edit;
    expect(applyEdits(S, [unknown]).reports[0]?.status).toBe('invalid');
  });

  test('deleting a paragraph between blank lines leaves one blank line', () => {
    expect(applyOne('# A\n\nold paragraph\n\nnext\n', { op: 'delete', target: 'old paragraph' }).skill).toBe('# A\n\nnext\n');
  });

  test('deleting the first or last line leaves no stray blank line', () => {
    expect(applyOne('first\nsecond\n', { op: 'delete', target: 'first' }).skill).toBe('second\n');
    expect(applyOne('first\nsecond', { op: 'delete', target: 'second' }).skill).toBe('first');
  });

  test('replacing a whole line with two lines keeps the following line separate', () => {
    expect(applyOne('# A\n- one\n- two\n', { op: 'replace', target: '- one', content: '- one a\n- one b' }).skill).toBe('# A\n- one a\n- one b\n- two\n');
  });

  test('insert_after refuses a position inside a protected region', () => {
    const skill = '# A\nanchor <!-- SLOW_UPDATE_START -->\ng\n<!-- SLOW_UPDATE_END -->\n';
    expect(applyOne(skill, { op: 'insert_after', target: 'anchor', content: 'x' }).status).toBe('protected');
  });

  test('an orphan start marker protects the rest of the document', () => {
    const skill = '# A\nbody\n<!-- APPENDIX_START -->\nnotes\n';
    expect(findProtectedRegions(skill)).toEqual([{ kind: 'appendix', start: skill.indexOf('<!--'), end: skill.length }]);
    expect(applyOne(skill, { op: 'delete', target: 'notes' }).status).toBe('protected');
  });
  test('the Sleep learned block, in either spelling, is protected from ordinary edits', () => {
    for (const [start, end] of [
      ['<!-- skillopt-sleep:learned start -->', '<!-- skillopt-sleep:learned end -->'],
      ['<!-- SKILLOPT-SLEEP:LEARNED START -->', '<!-- SKILLOPT-SLEEP:LEARNED END -->'],
    ]) {
      const skill = `# A\nbody\n${start}\n- never push on Fridays\n${end}\n`;
      expect(applyOne(skill, { op: 'delete', target: 'never push' }).status).toBe('protected');
      expect(applyOne(skill, { op: 'append', content: `x ${start}` }).status).toBe('invalid');
      expect(applyOne(skill, { op: 'append', content: 'new rule' }).skill).toBe(`# A\nbody\n\nnew rule\n\n${start}\n- never push on Fridays\n${end}\n`);
    }
  });
});
