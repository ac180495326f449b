import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AGENT_CLI_CACHE_VARIABLE, AGENT_CLIS } from '../src/diagnostics/agent-clis';
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
  agentClis: {
    onPath: AgentCliJson[];
    cache?: { directory: string; clis: AgentCliJson[]; problem?: string };
  };
  config?: {
    packages: Array<{ name: string; problem?: string }>;
    endpoints: Array<{ key: string; url: string; answered: boolean; status?: number; problem?: string }>;
  };
  problems: string[];
}

interface AgentCliJson {
  id: string;
  found: boolean;
  path?: string;
  version?: string;
  problem?: string;
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

  it('lists the agent CLIs on PATH and in the cache with their versions, and a missing one is no problem', async () => {
    const bin = path.join(project.directory, 'bin');
    mkdirSync(bin);
    // A native install: no package.json, so doctor asks the binary.
    writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho "2.1.197 (Claude Code)"\n');
    chmodSync(path.join(bin, 'claude'), 0o755);
    // An npm install: the version is read from the package, the binary is not run (it would fail).
    const piPackage = path.join(project.directory, 'lib', 'node_modules', '@mariozechner', 'pi-coding-agent');
    mkdirSync(path.join(piPackage, 'dist'), { recursive: true });
    writeFileSync(path.join(piPackage, 'package.json'), JSON.stringify({ name: '@mariozechner/pi-coding-agent', version: '0.73.1' }));
    writeFileSync(path.join(piPackage, 'dist', 'cli.js'), '#!/bin/sh\nexit 1\n');
    chmodSync(path.join(piPackage, 'dist', 'cli.js'), 0o755);
    symlinkSync(path.join(piPackage, 'dist', 'cli.js'), path.join(bin, 'pi'));
    // The installer's cache: its record names each binary and version.
    const cache = path.join(project.directory, 'agent-clis');
    mkdirSync(path.join(cache, 'codex-0.171.0'), { recursive: true });
    writeFileSync(path.join(cache, 'codex-0.171.0', 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(
      path.join(cache, 'installed.json'),
      JSON.stringify({
        formatVersion: 1,
        home: 'home',
        clis: { codex: { version: '0.171.0', binary: 'codex-0.171.0/codex' }, opencode: { version: '1.18.33', binary: 'opencode-1.18.33/opencode' } },
      }),
    );
    setEnv('PATH', bin);
    setEnv(AGENT_CLI_CACHE_VARIABLE, cache);

    const { stdout, error } = await runSkillopt(['doctor', '--json'], project.directory);
    expect(error).toBeUndefined();
    const report = JSON.parse(stdout) as DoctorJson;
    expect(report.agentClis.onPath).toEqual([
      { id: 'claude', found: true, path: path.join(bin, 'claude'), version: '2.1.197' },
      { id: 'codex', found: false },
      { id: 'copilot', found: false },
      { id: 'opencode', found: false },
      { id: 'pi', found: true, path: path.join(bin, 'pi'), version: '0.73.1' },
    ]);
    expect(report.agentClis.cache?.directory).toBe(cache);
    expect(report.agentClis.cache?.clis).toEqual([
      { id: 'claude', found: false },
      { id: 'codex', found: true, path: path.join(cache, 'codex-0.171.0', 'codex'), version: '0.171.0' },
      { id: 'copilot', found: false },
      { id: 'opencode', found: false, path: path.join(cache, 'opencode-1.18.33', 'opencode'), problem: 'recorded, but the binary is missing' },
      { id: 'pi', found: false },
    ]);
    expect(report.problems).toEqual([]);

    const text = await runSkillopt(['doctor'], project.directory);
    expect(text.stdout).toMatch(/Agent CLIs \(for harness targets; none is required\)\n {2}on PATH\n {4}claude +2\.1\.197 +\S+claude\n {4}codex +not found/);
    expect(text.stdout).toContain(`in the agent CLI cache (${cache})`);
    expect(text.stdout).toMatch(/codex +0\.171\.0 +\S+codex-0\.171\.0/);
    expect(text.stdout).toContain('No problems found.');
  });

  it('reports no agent CLI anywhere without failing, and shows no cache when the variable is unset', async () => {
    const empty = path.join(project.directory, 'empty-bin');
    mkdirSync(empty);
    setEnv('PATH', empty);
    setEnv(AGENT_CLI_CACHE_VARIABLE, undefined);
    const { stdout, error } = await runSkillopt(['doctor', '--json'], project.directory);
    expect(error).toBeUndefined();
    const report = JSON.parse(stdout) as DoctorJson;
    expect(report.agentClis).toEqual({ onPath: AGENT_CLIS.map((cli) => ({ id: cli.id, found: false })) });
    expect(report.problems).toEqual([]);
  });

  it('knows the agent CLIs the repository pins, under the cache variable its installer reads', () => {
    const pinned = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'tools', 'agent-clis', 'manifest.json'), 'utf8')) as {
      cacheDirectoryVariable: string;
      recordFile: string;
      clis: Array<{ id: string; bin: string; package: string }>;
    };
    expect(AGENT_CLIS.map(({ id, bin, packageName }) => ({ id, bin, package: packageName }))).toEqual(
      pinned.clis.map(({ id, bin, package: packageName }) => ({ id, bin, package: packageName })),
    );
    expect(AGENT_CLI_CACHE_VARIABLE).toBe(pinned.cacheDirectoryVariable);
    expect(pinned.recordFile).toBe('installed.json');
  });

  it('has a summary, a description and examples for --help', () => {
    expectHelp('doctor', ['config', 'json']);
  });
});
