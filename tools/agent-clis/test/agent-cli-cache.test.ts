import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import manifest from '../manifest.json';
import { agentCliCacheDirectory, locateAgentCli, missingAgentCliOutcome } from './helpers/agent-cli-cache';

describe('finding a pinned CLI in the cache', () => {
  let cacheDirectory: string;
  const environment = (): NodeJS.ProcessEnv => ({ [manifest.cacheDirectoryVariable]: cacheDirectory });
  const writeRecord = (clis: Record<string, { version: string; binary: string }>): void =>
    writeFileSync(path.join(cacheDirectory, manifest.recordFile), JSON.stringify({ formatVersion: 1, home: 'home', clis }));

  beforeEach(() => {
    cacheDirectory = mkdtempSync(path.join(os.tmpdir(), 'agent-clis-cache-'));
  });
  afterEach(() => rmSync(cacheDirectory, { recursive: true, force: true }));

  it('uses the folder the variable names, else the repository’s .cache/agent-clis', () => {
    expect(agentCliCacheDirectory(environment())).toBe(cacheDirectory);
    expect(agentCliCacheDirectory({})).toBe(path.resolve(__dirname, '..', '..', '..', '.cache', 'agent-clis'));
  });

  it('says which command installs a CLI when the cache has none, or another version than the manifest pins', () => {
    expect(locateAgentCli('pi', environment())).toEqual({
      found: false,
      problem: `no agent CLI is installed in ${cacheDirectory} (no installed.json): install the pinned CLIs with \`node tools/agent-clis/install.mjs\``,
    });
    writeRecord({ pi: { version: '0.1.0', binary: 'pi-0.1.0/node_modules/.bin/pi' } });
    expect(locateAgentCli('pi', environment())).toMatchObject({ found: false, problem: expect.stringContaining('holds pi 0.1.0, the manifest pins 0.73.1') });
    expect(locateAgentCli('claude', environment())).toMatchObject({ found: false, problem: expect.stringContaining('claude is not installed in') });
  });

  it('gives the absolute binary, the cache home and the offline settings of a CLI that is there', () => {
    const binary = path.join('codex-0.171.0', 'node_modules', '.bin', 'codex');
    mkdirSync(path.dirname(path.join(cacheDirectory, binary)), { recursive: true });
    writeFileSync(path.join(cacheDirectory, binary), '');
    writeRecord({ codex: { version: '0.171.0', binary } });
    expect(locateAgentCli('codex', environment())).toEqual({
      found: true,
      cli: {
        id: 'codex',
        version: '0.171.0',
        binary: path.join(cacheDirectory, binary),
        cacheHome: path.join(cacheDirectory, 'home'),
        offlineEnvironment: {},
        offlineArguments: ['-c', 'analytics.enabled=false', '-c', 'features.plugins=false', '-c', 'features.apps=false'],
      },
    });
  });

  it('fails a test whose CLI is missing under CI, and skips it elsewhere', () => {
    expect(missingAgentCliOutcome({ CI: 'true' })).toBe('fail');
    expect(missingAgentCliOutcome({ CI: '1' })).toBe('fail');
    expect(missingAgentCliOutcome({})).toBe('skip');
    expect(missingAgentCliOutcome({ CI: 'false' })).toBe('skip');
  });
});
