import { z } from 'zod';
import { formatZodIssues } from '../src/index';

const schema = z.strictObject({ limit: z.int().min(0), split: z.strictObject({ seed: z.int() }).optional() });

function issuesOf(input: unknown) {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected the input to be invalid');
  return parsed.error.issues;
}

describe('formatZodIssues', () => {
  it('puts every problem on one line with its dotted path', () => {
    expect(formatZodIssues(issuesOf({ limit: -1, split: { seed: 'x' } }))).toBe(
      'limit: Too small: expected number to be >=0; split.seed: Invalid input: expected number, received string',
    );
  });

  it('names each key where the user wrote it, given the section the value sits in', () => {
    expect(formatZodIssues(issuesOf({ limit: 1, split: { seed: 1.5 } }), { pathPrefix: 'env' })).toBe(
      'env.split.seed: Invalid input: expected int, received number',
    );
  });

  it('takes the error itself as well as its issues', () => {
    const parsed = schema.safeParse({ limit: 'many' });
    if (parsed.success) throw new Error('expected the input to be invalid');
    expect(formatZodIssues(parsed.error)).toBe(formatZodIssues(parsed.error.issues));
  });

  it('reads a problem of the whole value as the bare message, or under the prefix', () => {
    const whole = issuesOf('not a mapping');
    expect(formatZodIssues(whole)).toBe('Invalid input: expected object, received string');
    expect(formatZodIssues(whole, { pathPrefix: 'backends.sim' })).toBe('backends.sim: Invalid input: expected object, received string');
  });
});
