import type { ScaffoldContext, ScaffoldFile } from './context.js';

/**
 * The package's own tests, plain ES modules run by Jest natively: the conformance suite of
 * @skillopt/env-kit (the same checks SkillOpt's own envs pass) with a check of the package entry,
 * and unit tests of the scorer.
 */
export function buildTestFiles(context: ScaffoldContext): ScaffoldFile[] {
  const conformance = `// The contract checks every SkillOpt env passes: item schemas, deterministic loading, provider
// errors never scored, abort, concurrency. They use test-double models, so no API key is needed.
import { describeEnvironmentPackageProblem } from '@skillopt/contract';
import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import * as entry from '../src/index.js';
import { createEnvironment, manifest } from '../src/index.js';

describeEnvironmentConformance({
  name: '${context.packageName}',
  createEnvironment: () => createEnvironment(),
  sampleSize: 6,
});

describe('${context.packageName} package entry', () => {
  it('is a usable env package: manifest and createEnvironment', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'env', id: '${context.name}' });
  });

  it('rejects a misspelt config key', () => {
    expect(manifest.configSchema.safeParse({ limt: 2 }).success).toBe(false);
    expect(() => createEnvironment({ limt: 2 })).toThrow(/limt/);
  });

  it('ships 6 train, 3 val and 3 test items', async () => {
    const environment = createEnvironment();
    const sizes = await Promise.all(['train', 'val', 'test'].map(async (split) => (await environment.loadSplit(split)).length));
    expect(sizes).toEqual([6, 3, 3]);
  });
});
`;
  const scoring = `import { scoreReply } from '../src/scoring.js';

describe('scoreReply', () => {
  it('scores the tagged answer by exact match (hard) and token F1 (soft)', () => {
    expect(scoreReply('Easy. <answer>Canberra</answer>', ['Canberra'])).toEqual({ prediction: 'Canberra', hard: 1, soft: 1 });
    const verbose = scoreReply('<answer>The capital is Canberra</answer>', ['Canberra']);
    expect(verbose.hard).toBe(0);
    expect(verbose.soft).toBeGreaterThan(0);
    expect(verbose.soft).toBeLessThan(1);
    expect(verbose.failureReason).toMatch(/partly/);
  });

  it('normalises case, articles and punctuation before comparing', () => {
    expect(scoreReply('<answer>the pacific.</answer>', ['Pacific']).hard).toBe(1);
  });

  it('falls back to the last line when there is no tag, and says so', () => {
    const score = scoreReply('Let me think.\\nSydney', ['Canberra']);
    expect(score).toMatchObject({ prediction: 'Sydney', hard: 0, soft: 0 });
    expect(score.failureReason).toMatch(/no <answer> tag/);
  });

  it('never passes a blank answer', () => {
    expect(scoreReply('<answer> </answer>', ['Canberra']).hard).toBe(0);
  });
});
`;
  return [
    { path: 'test/conformance.test.js', content: conformance },
    { path: 'test/scoring.test.js', content: scoring },
  ];
}
