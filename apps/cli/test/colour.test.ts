import { colourEnabled } from '../src/output/colours';
import { startSkillopt } from './helpers/cli-process';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';

const ESCAPE = '\u001b[';

describe('colour', () => {
  it('is off under NO_COLOR and on a pipe, on under FORCE_COLOR even on a pipe, and off for FORCE_COLOR=0', () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
    expect(colourEnabled({ TERM: 'dumb' }, true)).toBe(false);
    expect(colourEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    // An empty NO_COLOR is no setting (no-color.org); NO_COLOR wins over FORCE_COLOR.
    expect(colourEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colourEnabled({ NO_COLOR: '1', FORCE_COLOR: '1' }, false)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: 'false' }, true)).toBe(false);
    // CI services set CI: a pipe there still gets no colour unless it is forced (picocolors' own rule colours it).
    expect(colourEnabled({ CI: 'true' }, false)).toBe(false);
  });

  describe('of skillopt train on a pipe', () => {
    let project: FixtureProject;
    beforeAll(() => {
      project = createFixtureProject();
    });
    afterAll(() => project.remove());
    const train = (out: string, environment: NodeJS.ProcessEnv) =>
      startSkillopt(['train', '--config', 'train.yaml', '--out', out], project.directory, { NO_COLOR: undefined, FORCE_COLOR: undefined, ...environment })
        .ended;

    it('has no escape codes under NO_COLOR or by default, and has them under FORCE_COLOR=1', async () => {
      const [noColour, piped, forced] = await Promise.all([
        train('run-no-colour', { NO_COLOR: '1' }),
        train('run-piped', {}),
        train('run-forced', { FORCE_COLOR: '1' }),
      ]);
      for (const result of [noColour, piped, forced]) expect(result.code).toBe(0);
      expect(noColour.stdout).toContain('SIMULATED');
      expect(noColour.stdout).not.toContain(ESCAPE);
      expect(piped.stdout).toContain('SIMULATED');
      expect(piped.stdout).not.toContain(ESCAPE);
      expect(forced.stdout).toContain(`${ESCAPE}33m${ESCAPE}1mSIMULATED`);
      expect(forced.stdout).toMatch(/\u001b\[32m\d+ accepted\u001b\[39m/);
      // The same lines, styled: colour changes nothing else.
      const unstyled = forced.stdout.replace(/\u001b\[[0-9;]*m/g, '');
      expect(unstyled.split('\n').length).toBe(noColour.stdout.split('\n').length);
    });
  });
});
