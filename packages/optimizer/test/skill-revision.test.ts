import { applyEdits, editsFromRevision, SLOW_UPDATE_END_MARKER, SLOW_UPDATE_START_MARKER } from '../src/index';

const SKILL = [
  '# Answering',
  '',
  '- Read the question twice.',
  '- Answer in one line.',
  '',
  '## Format',
  '',
  'Put the answer inside <answer></answer> tags.',
  '',
].join('\n');

/** The revision's edits applied to the incumbent, from the end backwards (as the agent optimizer applies them). */
function replayed(skill: string, revised: string): string {
  const { changes } = editsFromRevision(skill, revised);
  const fromTheEnd = [...changes].sort((left, right) => right.position - left.position).map((change) => change.edit);
  const result = applyEdits(skill, fromTheEnd);
  expect(result.reports.every((report) => report.status === 'applied')).toBe(true);
  return result.skill;
}

describe('editsFromRevision: an agent’s copy of the skill read as edits', () => {
  it('reads nothing from an unchanged copy, nor from a change of blank lines alone', () => {
    expect(editsFromRevision(SKILL, SKILL)).toEqual({ changes: [], refused: [] });
    expect(editsFromRevision(SKILL, SKILL.replace('\n\n## Format', '\n\n\n## Format')).changes).toEqual([]);
  });

  it('reads a removed bullet as a delete, and a run of removed and changed lines as one replace per block', () => {
    const removed = SKILL.replace('- Read the question twice.\n', '');
    expect(editsFromRevision(SKILL, removed).changes.map((change) => change.edit)).toEqual([
      expect.objectContaining({ op: 'delete', target: '- Read the question twice.' }),
    ]);
    expect(replayed(SKILL, removed)).toBe(removed);

    const revised = SKILL.replace('- Answer in one line.', '- Answer in one short line.\n- Give numbers as digits.').replace(
      '- Read the question twice.\n',
      '',
    );
    const edits = editsFromRevision(SKILL, revised).changes.map((change) => change.edit);
    expect(edits).toEqual([
      expect.objectContaining({ op: 'replace', target: '- Read the question twice.', content: '- Answer in one short line.' }),
      expect.objectContaining({ op: 'replace', target: '- Answer in one line.', content: '- Give numbers as digits.' }),
    ]);
    expect(replayed(SKILL, revised)).toBe(revised);
  });

  it('reads blocks added at one place as one edit each, which land in the agent’s order', () => {
    const revised = SKILL.replace('- Answer in one line.', '- Answer in one line.\n- Give numbers as digits.\n- Spell names in full.');
    const edits = editsFromRevision(SKILL, revised).changes.map((change) => change.edit);
    expect(edits).toEqual([
      expect.objectContaining({ op: 'insert_after', target: '- Answer in one line.', content: '- Give numbers as digits.' }),
      expect.objectContaining({ op: 'insert_after', target: '- Answer in one line.', content: '- Spell names in full.' }),
    ]);
    expect(replayed(SKILL, revised)).toBe(revised);
  });

  it('puts text added at the end after the last line, text before the first line in a replace of that line, and text in an empty skill in an append', () => {
    const appended = `${SKILL}\n## Checks\n`;
    expect(editsFromRevision(SKILL, appended).changes.map((change) => change.edit)).toEqual([
      expect.objectContaining({ op: 'insert_after', target: 'Put the answer inside <answer></answer> tags.', content: '## Checks' }),
    ]);
    const prefixed = `Read this first.\n\n${SKILL}`;
    const [edit] = editsFromRevision(SKILL, prefixed).changes.map((change) => change.edit);
    expect(edit).toEqual(expect.objectContaining({ op: 'replace', target: '# Answering', content: 'Read this first.\n# Answering' }));
    expect(editsFromRevision('', '- A first rule.\n').changes.map((change) => change.edit)).toEqual([
      expect.objectContaining({ op: 'append', content: '- A first rule.' }),
    ]);
  });

  it('cuts a copy rewritten from top to bottom into one edit per block, never one wholesale replacement', () => {
    const rewritten = ['# Careful answers', '', '- Check every number.', '- Quote the source.', '- Be brief.', ''].join('\n');
    const { changes, refused } = editsFromRevision(SKILL, rewritten);
    expect(refused).toEqual([]);
    expect(changes.length).toBeGreaterThanOrEqual(4);
    for (const { edit } of changes) expect((edit.content ?? edit.target ?? '').split('\n').length).toBeLessThanOrEqual(2);
    expect(replayed(SKILL, rewritten).replace(/\n+/g, '\n')).toBe(rewritten.replace(/\n+/g, '\n'));
  });

  it('borrows the lines above a target that occurs twice until it is unique', () => {
    const skill = '## Numbers\n- Be exact.\n\n## Names\n- Be exact.\n';
    const revised = '## Numbers\n- Be exact.\n\n## Names\n- Spell names in full.\n';
    const [change] = editsFromRevision(skill, revised).changes;
    expect(change?.edit).toEqual(expect.objectContaining({ op: 'replace', target: '## Names\n- Be exact.', content: '## Names\n- Spell names in full.' }));
    expect(replayed(skill, revised)).toBe(revised);
  });

  it('refuses a change inside a protected region, and one that writes a marker, and keeps the other changes', () => {
    const skill = `${SKILL}\n${SLOW_UPDATE_START_MARKER}\n- Guidance from the slow update.\n${SLOW_UPDATE_END_MARKER}\n`;
    const revised = skill.replace('- Guidance from the slow update.', '- My own guidance.').replace('- Answer in one line.', '- Answer in one short line.');
    const { changes, refused } = editsFromRevision(skill, revised);
    expect(changes.map((change) => change.edit)).toEqual([expect.objectContaining({ op: 'replace', target: '- Answer in one line.' })]);
    expect(refused).toEqual([{ reason: expect.stringContaining('protected region'), excerpt: '- Guidance from the slow update.' }]);

    // Text added after a protected block is an append: new rules belong to the body.
    const after = editsFromRevision(skill, `${skill}\n- A rule after the block.\n`);
    expect(after.changes.map((change) => change.edit)).toEqual([expect.objectContaining({ op: 'append', content: '- A rule after the block.' })]);
    expect(
      applyEdits(
        skill,
        after.changes.map((change) => change.edit),
      ).reports[0]?.status,
    ).toBe('applied');

    const marked = editsFromRevision(SKILL, `${SKILL}\n${SLOW_UPDATE_START_MARKER}\n- Mine.\n${SLOW_UPDATE_END_MARKER}\n`);
    expect(marked.changes).toEqual([]);
    expect(marked.refused).toEqual([expect.objectContaining({ reason: expect.stringContaining('protection marker') })]);
  });
});
