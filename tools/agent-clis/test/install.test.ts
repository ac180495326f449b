import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import manifest from '../manifest.json';
import { locateAgentCli } from './helpers/agent-cli-cache';

const installScript = path.join(__dirname, '..', 'install.mjs');

interface Installed {
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

describe('install.mjs (with a stand-in npm, no registry)', () => {
  let root: string;
  let cacheDirectory: string;
  let npmLog: string;
  let environment: NodeJS.ProcessEnv;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'agent-clis-install-'));
    cacheDirectory = path.join(root, 'cache');
    npmLog = path.join(root, 'npm.log');
    writeFileSync(npmLog, '');
    const binDirectory = path.join(root, 'bin');
    mkdirSync(binDirectory);
    symlinkSync(path.join(__dirname, 'fixtures', 'fake-npm.cjs'), path.join(binDirectory, 'npm'));
    environment = {
      PATH: [binDirectory, path.dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      HOME: root,
      [manifest.cacheDirectoryVariable]: cacheDirectory,
      FAKE_NPM_LOG: npmLog,
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const start = (extra: NodeJS.ProcessEnv = {}): { done: Promise<Installed>; pid: number } => {
    const child = spawn(process.execPath, [installScript], { env: { ...environment, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<Installed>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid ?? 0 })));
    return { done, pid: child.pid ?? 0 };
  };
  const install = (extra: NodeJS.ProcessEnv = {}): Promise<Installed> => start(extra).done;
  const npmCalls = (): string[] => readFileSync(npmLog, 'utf8').split('\n').filter(Boolean);
  const record = (): { clis: Record<string, { version: string; binary: string; versionOutput: string }> } =>
    JSON.parse(readFileSync(path.join(cacheDirectory, manifest.recordFile), 'utf8'));
  const pinnedSpecs = manifest.clis.map((cli) => `${cli.package}@${cli.version}`);

  it('installs each pinned CLI into a prefix of its own and records its binary and version; a second run installs nothing', async () => {
    const first = await install();
    expect(first.code).toBe(0);
    expect(npmCalls()).toEqual(pinnedSpecs);
    for (const cli of manifest.clis) {
      const entry = record().clis[cli.id];
      expect(entry).toMatchObject({ version: cli.version, versionOutput: `${cli.bin} ${cli.version}` });
      expect(entry?.binary).toBe(path.join(`${cli.id}-${cli.version}`, 'node_modules', '.bin', cli.bin));
      expect(existsSync(path.join(cacheDirectory, entry!.binary))).toBe(true);
      // What the tests see through the locate helper.
      const location = locateAgentCli(cli.id as 'claude', environment);
      expect(location).toMatchObject({ found: true, cli: { version: cli.version, binary: path.join(cacheDirectory, entry!.binary) } });
    }
    expect(existsSync(path.join(cacheDirectory, 'install.lock'))).toBe(false);

    const second = await install();
    expect(second.code).toBe(0);
    expect(npmCalls()).toHaveLength(pinnedSpecs.length);
    expect(second.stdout.match(/ present /g)).toHaveLength(pinnedSpecs.length);
    expect(Object.keys(record().clis).sort()).toEqual(manifest.clis.map((cli) => cli.id).sort());
  });

  it('makes a second install started meanwhile wait for the first, then install nothing', async () => {
    const first = start({ FAKE_NPM_DELAY_MS: '300' });
    while (!existsSync(path.join(cacheDirectory, 'install.lock', 'owner.json'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = install({ FAKE_NPM_DELAY_MS: '300' });
    const [firstResult, secondResult] = await Promise.all([first.done, second]);
    expect([firstResult.code, secondResult.code]).toEqual([0, 0]);
    expect(secondResult.stdout).toContain(`waiting for the install of pid ${first.pid}`);
    expect(npmCalls()).toEqual(pinnedSpecs);
    expect(Object.keys(record().clis)).toHaveLength(pinnedSpecs.length);
  });

  it('names the CLI and npm’s error when an install fails, installs the others, and leaves no partial prefix', async () => {
    const failed = await install({ FAKE_NPM_FAIL: '@openai/codex' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('installing codex (@openai/codex@0.171.0) failed: npm install @openai/codex@0.171.0 exited with 1');
    expect(failed.stderr).toContain('404 Not Found');
    expect(Object.keys(record().clis).sort()).toEqual(['claude', 'copilot', 'opencode', 'pi']);
    expect(existsSync(path.join(cacheDirectory, 'codex-0.171.0'))).toBe(false);
    expect(existsSync(path.join(cacheDirectory, '.codex-0.171.0.partial'))).toBe(false);
    expect(locateAgentCli('codex', environment)).toMatchObject({ found: false, problem: expect.stringContaining('node tools/agent-clis/install.mjs') });
  });

  it('reports a CLI whose --version does not print the pinned version, and does not record it', async () => {
    const result = await install({ FAKE_NPM_WRONG_VERSION: 'opencode-ai' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('opencode (opencode-ai@1.18.33): `opencode --version` exited with 0 and printed "opencode 0.0.0-other"');
    expect(record().clis.opencode).toBeUndefined();
  });

  it('takes over a lock whose process is gone, and removes versions the manifest no longer pins', async () => {
    const gone = spawnSync('true').pid;
    mkdirSync(path.join(cacheDirectory, 'install.lock'), { recursive: true });
    writeFileSync(path.join(cacheDirectory, 'install.lock', 'owner.json'), JSON.stringify({ pid: gone, host: os.hostname(), startedAt: 'earlier' }));
    mkdirSync(path.join(cacheDirectory, 'claude-0.0.1', 'node_modules'), { recursive: true });
    const result = await install();
    expect(result.code).toBe(0);
    expect(npmCalls()).toEqual(pinnedSpecs);
    expect(existsSync(path.join(cacheDirectory, 'claude-0.0.1'))).toBe(false);
    expect(existsSync(path.join(cacheDirectory, 'install.lock'))).toBe(false);
  });
});
