import { isShapeOnly, validateChecks } from '../src/judge/validate-checks';

describe('validateChecks', () => {
  it.each([[[]], [''], [0], [42], ['checks']])('refuses a judge that is not an object: %j', (judge) => {
    expect(validateChecks(judge).errors).toEqual([expect.stringMatching(/^judge must be an object, got /)]);
  });
  it('accepts no judge, an empty one and an empty check list', () => {
    for (const judge of [undefined, null, {}, { checks: [] }]) expect(validateChecks(judge)).toEqual({ errors: [], warnings: [] });
  });
  it('refuses checks that are not an array', () => {
    expect(validateChecks({ checks: 'contains' }).errors).toEqual(["judge 'checks' must be an array"]);
  });
  it('reports each bad check by its number', () => {
    const { errors } = validateChecks({
      checks: [
        'contains',
        { op: 3 },
        { op: 'contains', arg: '  ' },
        { op: 'tool_called' },
        { op: 'regex', arg: 'foo(' },
        { op: 'max_chars', arg: 'ten' },
        { op: 'min_chars', arg: -1 },
        { op: 'max_chars', arg: 1.5 },
      ],
    });
    expect(errors).toEqual([
      'check #1 must be an object, got a string',
      'check #2 op must be a string, got a number',
      'check #3 contains needs a non-empty arg',
      'check #4 tool_called needs a non-empty arg',
      expect.stringMatching(/^check #5 regex does not compile \(/),
      'check #6 max_chars needs an integer arg, got "ten"',
      'check #7 min_chars cannot be negative',
      'check #8 max_chars needs an integer arg, got 1.5',
    ]);
  });
  it('makes an unknown operator an error naming the nearest, where the original only warned (weak spot §9.13)', () => {
    expect(validateChecks({ checks: [{ op: 'not_contain', arg: 'x' }] }).errors).toEqual([
      expect.stringContaining('check #1 has unknown op "not_contain" (did you mean "not_contains"?)'),
    ]);
  });
  it('warns of a check that always passes and of a shape-only judge', () => {
    expect(validateChecks({ checks: [{ op: 'min_chars', arg: 0 }] }).warnings).toEqual([
      'check #1 min_chars 0 always passes',
      expect.stringContaining('shape-only'),
    ]);
    expect(
      validateChecks({
        checks: [
          { op: 'max_chars', arg: ' 2 ' },
          { op: 'contains', arg: 'x' },
        ],
      }),
    ).toEqual({ errors: [], warnings: [] });
  });
});

describe('isShapeOnly', () => {
  it('is true only for a non-empty list of shape checks', () => {
    expect(
      isShapeOnly({
        checks: [
          { op: 'section_present', arg: 'A' },
          { op: 'max_chars', arg: 9 },
        ],
      }),
    ).toBe(true);
    expect(
      isShapeOnly({
        checks: [
          { op: 'section_present', arg: 'A' },
          { op: 'contains', arg: 'x' },
        ],
      }),
    ).toBe(false);
    expect(isShapeOnly({ checks: [] })).toBe(false);
    expect(isShapeOnly([])).toBe(false);
    expect(isShapeOnly({ checks: ['max_chars'] })).toBe(false);
  });
});
