import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { oneLine } from './helpers/cli-process';
import { runSkillopt } from './helpers/command-runner';

// `train` and `eval` with no --config and no project config to discover: how to start, not core's
// first missing key ("env: required key is missing").
describe('a command with no config at all', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-no-config-'));
    // A project root: discovery stops here, so nothing above the temporary directory is found.
    writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('train says how to start (init, demo, --config) and exits 2', async () => {
    const { error } = await runSkillopt(['train'], directory);
    expect(error?.oclif?.exit).toBe(2);
    const message = oneLine(error?.message ?? '');
    expect(message).toContain('no run config');
    expect(message).toContain('skillopt init');
    expect(message).toContain('skillopt demo');
    expect(message).toContain('skillopt train --config <file>');
    expect(message).not.toContain('required key is missing');
  });

  it('eval says the same, with its own command line', async () => {
    writeFileSync(path.join(directory, 'skill.md'), '# A skill\n');
    const { error } = await runSkillopt(['eval', '--skill', 'skill.md'], directory);
    expect(error?.oclif?.exit).toBe(2);
    const message = oneLine(error?.message ?? '');
    expect(message).toContain('skillopt init');
    expect(message).toContain('skillopt eval --config <file> --skill skill.md');
  });
});
