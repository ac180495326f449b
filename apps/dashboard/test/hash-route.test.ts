import { diffHref, parseHashRoute, runHref, runsHref, stepHref } from '../src/router/hash-route.js';
import { pageTitle } from '../src/router/page-title.js';

describe('parseHashRoute', () => {
  it('reads the runs page from an empty or root hash', () => {
    expect(parseHashRoute('')).toEqual({ page: 'runs' });
    expect(parseHashRoute('#')).toEqual({ page: 'runs' });
    expect(parseHashRoute('#/')).toEqual({ page: 'runs' });
  });

  it('reads a run, a step and a diff', () => {
    expect(parseHashRoute('#/runs/demo')).toEqual({ page: 'run', runName: 'demo' });
    expect(parseHashRoute('#/runs/demo/steps/3')).toEqual({ page: 'step', runName: 'demo', step: 3 });
    expect(parseHashRoute('#/runs/demo/diff?from=skill_v0000&to=skill_v0005')).toEqual({
      page: 'diff',
      runName: 'demo',
      from: 'skill_v0000',
      to: 'skill_v0005',
    });
  });

  it('decodes a run name that is one encoded segment', () => {
    expect(parseHashRoute('#/runs/nested%2Frun%20one/steps/12')).toEqual({ page: 'step', runName: 'nested/run one', step: 12 });
  });

  it('names no page for anything else', () => {
    for (const hash of [
      '#/runs',
      '#/runs/demo/steps/0',
      '#/runs/demo/steps/x',
      '#/runs/demo/steps/1/more',
      '#/runs/demo/diff?from=a',
      '#/other',
      '#/runs/%E0%A4%A',
    ])
      expect(parseHashRoute(hash)).toEqual({ page: 'not-found', hash });
  });

  it('reads back what the links write', () => {
    const name = 'run with spaces/and a slash?';
    expect(runsHref()).toBe('#/');
    expect(runHref('demo')).toBe('#/runs/demo');
    expect(parseHashRoute(runHref(name))).toEqual({ page: 'run', runName: name });
    expect(parseHashRoute(stepHref(name, 7))).toEqual({ page: 'step', runName: name, step: 7 });
    expect(parseHashRoute(diffHref(name, 'skill_v0001', 'skill_epoch_02_slow_update'))).toEqual({
      page: 'diff',
      runName: name,
      from: 'skill_v0001',
      to: 'skill_epoch_02_slow_update',
    });
  });
});

describe('pageTitle', () => {
  it('names the page first and the dashboard last', () => {
    expect(pageTitle({ page: 'runs' })).toBe('Runs · SkillOpt dashboard');
    expect(pageTitle({ page: 'run', runName: 'demo' })).toBe('Run demo · SkillOpt dashboard');
    expect(pageTitle({ page: 'step', runName: 'demo', step: 4 })).toBe('Step 4 of run demo · SkillOpt dashboard');
    expect(pageTitle({ page: 'diff', runName: 'demo', from: 'a', to: 'b' })).toBe('Skill diff a → b of run demo · SkillOpt dashboard');
  });
});
