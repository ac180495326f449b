import { editSchema } from '@skillopt/contract';
import { RejectedEditBuffer } from '../src/index';

const edit = (n: number) => editSchema.parse({ op: 'append', content: `- rule ${n}`, rationale: `because ${n}`, support: n, source: 'failure' });

describe('RejectedEditBuffer', () => {
  test('is bounded: beyond maxEntries the oldest are dropped', () => {
    const buffer = new RejectedEditBuffer({ maxEntries: 3 });
    buffer.record({ globalStep: 1, edits: [edit(1), edit(2)], scoreBefore: 0.5, scoreAfter: 0.25 });
    buffer.record({ globalStep: 2, edits: [edit(3), edit(4)] });
    expect(buffer.size).toBe(3);
    expect(buffer.entries.map((entry) => entry.edit.content)).toEqual(['- rule 2', '- rule 3', '- rule 4']);
  });

  test('the same edit refused again moves to the newest position', () => {
    const buffer = new RejectedEditBuffer({ maxEntries: 5 });
    buffer.record({ globalStep: 1, edits: [edit(1), edit(2)] });
    buffer.record({ globalStep: 3, edits: [edit(1)] });
    expect(buffer.entries.map((entry) => [entry.globalStep, entry.edit.content])).toEqual([
      [1, '- rule 2'],
      [3, '- rule 1'],
    ]);
  });

  test('renders one line per edit with the scores; empty renders as empty', () => {
    const buffer = new RejectedEditBuffer();
    expect(buffer.render()).toBe('');
    buffer.record({ globalStep: 4, edits: [edit(1)], scoreBefore: 0.5, scoreAfter: 0.25 });
    expect(buffer.render()).toBe('- step 4, score 0.500 -> 0.250: {"op":"append","content":"- rule 1","rationale":"because 1"}');
  });

  test('round-trips through JSON', () => {
    const buffer = new RejectedEditBuffer({ maxEntries: 4 });
    buffer.record({ globalStep: 2, edits: [edit(1), edit(2)], scoreBefore: 0.7, scoreAfter: 0.6 });
    const restored = RejectedEditBuffer.fromJSON(JSON.parse(JSON.stringify(buffer)));
    expect(restored.maxEntries).toBe(4);
    expect(restored.entries).toEqual(buffer.entries);
    expect(restored.render()).toBe(buffer.render());
  });

  test('rejects data that is not a saved buffer, and bad sizes', () => {
    expect(() => RejectedEditBuffer.fromJSON({ version: 2, maxEntries: 3, entries: [] })).toThrow(/not a saved rejected-edit buffer/);
    expect(() => RejectedEditBuffer.fromJSON({ version: 1, maxEntries: 3, entries: [{ globalStep: 0, edit: {} }] })).toThrow(
      expect.objectContaining({ code: 'data-invalid' }),
    );
    expect(() => new RejectedEditBuffer({ maxEntries: 0 })).toThrow(expect.objectContaining({ code: 'config-invalid' }));
  });

  test('clear empties it', () => {
    const buffer = new RejectedEditBuffer();
    buffer.record({ globalStep: 1, edits: [edit(1)] });
    buffer.clear();
    expect(buffer.size).toBe(0);
  });
});
