import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createFixtureProject, defaultConfig, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';
import { expectHelp } from './helpers/help-manifest';

interface DoctorJson {
  node: { version: string; required: string; ok: boolean };
  packages: Array<{
    from: string;
    directory: string;
    packages: Array<{ packageName: string; kind: string; id?: string; specificationVersion?: string; ok: boolean; problem?: string }>;
  }>;
  credentials: Array<{ name: string; present: boolean }>;
  config?: {
    packages: Array<{ name: string; problem?: string }>;
    endpoints: Array<{ key: string; url: string; answered: boolean; status?: number; problem?: string }>;
  };
  problems: string[];
}

const SECRET = 'sk-doctor-test-5f1e2d3c4b5a69788796a5b4';

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

describe('skillopt doctor', () => {
  let project: FixtureProject;
  const saved: Record<string, string | undefined> = {};
  const setEnv = (name: string, value: string | undefined) => {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  beforeEach(() => {
    project = createFixtureProject();
  });
  afterEach(() => {
    project.remove();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
      delete saved[name];
    }
  });

  it('reports Node.js and the env and backend packages seen from the project and from the CLI', async () => {
    const { stdout, error } = await runSkillopt(['doctor', '--json'], project.directory);
    expect(error).toBeUndefined();
    const report = JSON.parse(stdout) as DoctorJson;
    expect(report.node).toEqual({ version: process.versions.node, required: '20.19.0', ok: true });
    const fromProject = report.packages.find((location) => location.from === 'the working directory');
    expect(fromProject?.packages).toContainEqual(
      expect.objectContaining({ packageName: 'skillopt-env-fixture', kind: 'env', id: 'fixture', specificationVersion: 'v1', ok: true }),
    );
    const fromCli = report.packages.find((location) => location.from === 'the skillopt installation');
    expect(fromCli?.packages).toContainEqual(
      expect.objectContaining({ packageName: '@skillopt/env-searchqa', id: 'searchqa', specificationVersion: 'v1', ok: true }),
    );
    expect(fromCli?.packages).toContainEqual(expect.objectContaining({ packageName: '@skillopt/backends-sim', kind: 'backend', id: 'sim', ok: true }));
    // The kits share the naming pattern but are libraries, not packages.
    expect(fromCli?.packages.map((found) => found.packageName)).not.toContain('@skillopt/backends-kit');
    expect(report.problems).toEqual([]);
  });

  it('prints the same as text, and says how to check a config', async () => {
    const { stdout, error } = await runSkillopt(['doctor'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toMatch(/Node\.js\n {2}\S+ {2}ok/);
    expect(stdout).toMatch(/skillopt-env-fixture\s+1\.0\.0\s+env\s+id fixture, contract v1/);
    expect(stdout).toContain('Pass --config');
    expect(stdout).toContain('No problems found.');
  });

  it('says which credentials are set without ever printing their values', async () => {
    setEnv('OPENAI_API_KEY', SECRET);
    setEnv('ANTHROPIC_API_KEY', undefined);
    setEnv('SOMEPROVIDER_API_KEY', `${SECRET}-other`);
    const text = await runSkillopt(['doctor'], project.directory);
    expect(text.stdout).toMatch(/OPENAI_API_KEY\s+set\b/);
    expect(text.stdout).toMatch(/ANTHROPIC_API_KEY\s+not set\b/);
    expect(text.stdout).toMatch(/SOMEPROVIDER_API_KEY\s+set\b/);
    // The variables come from the installed backends' manifests: the openai backend's presets' own.
    expect(text.stdout).toMatch(/DEEPSEEK_API_KEY\s+not set\s+DeepSeek/);
    expect(text.stdout).toMatch(/OPENAI_COMPATIBLE_API_KEY\s+not set\s+OpenAI-compatible servers/);
    const json = await runSkillopt(['doctor', '--json'], project.directory);
    const report = JSON.parse(json.stdout) as DoctorJson;
    expect(report.credentials).toContainEqual({ name: 'OPENAI_API_KEY', present: true });
    expect(report.credentials).toContainEqual({ name: 'ANTHROPIC_API_KEY', present: false });
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      expect(output).not.toContain(SECRET);
      expect(output).not.toContain(SECRET.slice(0, 12));
    }
  });

  it('reports an invalid package and exits 1', async () => {
    const broken = path.join(project.directory, 'node_modules', 'skillopt-backends-broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(
      path.join(broken, 'package.json'),
      JSON.stringify({ name: 'skillopt-backends-broken', version: '0.0.1', type: 'module', exports: './index.js' }),
    );
    writeFileSync(path.join(broken, 'index.js'), 'export const nothing = 1;\n');
    const { stdout, error } = await runSkillopt(['doctor', '--json'], project.directory);
    expect(error?.oclif?.exit).toBe(1);
    const report = JSON.parse(stdout) as DoctorJson;
    const found = report.packages.flatMap((location) => location.packages).find((entry) => entry.packageName === 'skillopt-backends-broken');
    expect(found).toMatchObject({ kind: 'backend', ok: false });
    expect(found?.problem).toContain('manifest');
    expect(report.problems.join('\n')).toContain('skillopt-backends-broken');
  });

  it('checks the endpoints of a config on a loopback server, without printing credentials in the URL', async () => {
    const requests: string[] = [];
    const { server, port } = await listen((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    try {
      writeFileSync(
        project.configFile,
        `${defaultConfig()}`.replace('backends:\n', `backends:\n  local:\n    base_url: http://user:${SECRET}@127.0.0.1:${port}/v1?key=${SECRET}\n`),
      );
      const { stdout, stderr, error } = await runSkillopt(['doctor', '--config', 'train.yaml', '--json'], project.directory);
      expect(error).toBeUndefined();
      const report = JSON.parse(stdout) as DoctorJson;
      expect(report.config?.endpoints).toEqual([{ key: 'backends.local.base_url', url: `http://127.0.0.1:${port}/v1`, answered: true, status: 200 }]);
      expect(report.config?.packages.every((found) => found.problem === undefined)).toBe(true);
      expect(requests).toEqual([`GET /v1?key=${SECRET}`]);
      expect(stdout + stderr).not.toContain(SECRET);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reports an endpoint that does not answer, and a package the config names that is missing, and exits 1', async () => {
    const { server, port } = await listen(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    writeFileSync(
      project.configFile,
      defaultConfig()
        .replace('name: fixture', 'name: nosuchbench')
        .replace('backends:\n', `backends:\n  local:\n    target:\n      base_url: http://127.0.0.1:${port}/v1\n`),
    );
    const { stdout, error } = await runSkillopt(['doctor', '--config', 'train.yaml'], project.directory);
    expect(error?.oclif?.exit).toBe(1);
    expect(stdout).toMatch(new RegExp(`backends\\.local\\.target\\.base_url http://127\\.0\\.0\\.1:${port}/v1: NO ANSWER`));
    expect(stdout).toContain('If it is a third-party package, install it in your project under its published name, e.g. npm install skillopt-env-nosuchbench');
    expect(stdout).toMatch(/\d problem\(s\):/);
  });

  it('exits 2 for a config that does not exist and for an unknown flag', async () => {
    expect((await runSkillopt(['doctor', '--config', 'missing.yaml'], project.directory)).error?.oclif?.exit).toBe(2);
    expect((await runSkillopt(['doctor', '--fix'], project.directory)).error?.oclif?.exit).toBe(2);
  });

  it('has a summary, a description and examples for --help', () => {
    expectHelp('doctor', ['config', 'json']);
  });
});
