import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';

interface PrintedJson {
  config: { env: { name: string }; train: { num_epochs: number; seed: number } };
  sources: Record<string, { kind: string; path?: string; name?: string }>;
}

// Without --config, the project's defaults are discovered as tools of this kind do: a
// skillopt.config.* or .skilloptrc* file, or the "skillopt" key of package.json, from the working
// directory up to the project root.
describe('project config discovery', () => {
  let project: FixtureProject;
  beforeEach(() => {
    project = createFixtureProject();
  });
  afterEach(() => project.remove());

  async function printedFrom(workingDirectory: string, extra: string[] = []): Promise<PrintedJson> {
    const { stdout, error } = await runSkillopt(['config', 'print', '--json', ...extra], workingDirectory);
    expect(error).toBeUndefined();
    return JSON.parse(stdout) as PrintedJson;
  }

  it('finds .skilloptrc.yaml in the working directory', async () => {
    renameSync(project.configFile, path.join(project.directory, '.skilloptrc.yaml'));
    const printed = await printedFrom(project.directory);
    expect(printed.config.env.name).toBe('fixture');
    expect(printed.sources['env.name']).toMatchObject({ kind: 'file', path: path.join(project.directory, '.skilloptrc.yaml') });
  });

  it('finds skillopt.config.yaml from a subdirectory of the project', async () => {
    renameSync(project.configFile, path.join(project.directory, 'skillopt.config.yaml'));
    const subdirectory = path.join(project.directory, 'experiments', 'first');
    mkdirSync(subdirectory, { recursive: true });
    const printed = await printedFrom(subdirectory);
    expect(printed.config.env.name).toBe('fixture');
  });

  it('reads the "skillopt" key of package.json', async () => {
    const config = { model: { target_backend: 'sim', optimizer_backend: 'sim' }, train: { num_epochs: 3 }, env: { name: 'fixture' } };
    writeFileSync(path.join(project.directory, 'package.json'), JSON.stringify({ name: 'fixture-project', private: true, skillopt: config }));
    const printed = await printedFrom(project.directory);
    expect(printed.config.train.num_epochs).toBe(3);
  });

  it('puts --config on top of the discovered defaults', async () => {
    writeFileSync(path.join(project.directory, '.skilloptrc.json'), JSON.stringify({ train: { seed: 99, num_epochs: 5 } }));
    const printed = await printedFrom(project.directory, ['--config', 'train.yaml']);
    expect(printed.config.train.seed).toBe(99);
    expect(printed.config.train.num_epochs).toBe(1);
  });
});
