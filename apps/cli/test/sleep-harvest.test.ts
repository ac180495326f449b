import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCheckpointStore, OWN_SESSION_SENTINEL } from '@skillopt/sleep';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';
import { startSkillopt } from './helpers/cli-process';

const CLAUDE_SESSIONS = path.join(CLI_TRANSCRIPTS, 'claude', 'projects', '-home-user-project');
const PROJECT = '/home/user/project';

interface Line {
  type: string;
  [key: string]: unknown;
}

describe('skillopt sleep harvest', () => {
  let home: string;
  let sessions: string;
  const skillopt = (args: string[]) =>
    startSkillopt(args, home, {
      HOME: home,
      CLAUDE_CONFIG_DIR: '',
      CODEX_HOME: '',
      COPILOT_HOME: '',
      OPENCODE_DB: '',
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      SKILLOPT_SLEEP_HOME: path.join(home, 'sleep-state'),
    }).ended;
  const jsonLines = (stdout: string): Line[] =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);

  beforeEach(() => {
    // A home of its own, holding the two sessions the real Claude Code CLI wrote.
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-harvest-'));
    sessions = path.join(home, '.claude', 'projects', '-home-user-project');
    mkdirSync(sessions, { recursive: true });
    for (const file of readdirSync(CLAUDE_SESSIONS)) cpSync(path.join(CLAUDE_SESSIONS, file), path.join(sessions, file));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('says per source what it found, and writes nothing', async () => {
    const { code, stdout, stderr } = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--lookback', '0']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^2 sessions \(\d+ distinct tasks?\) from 1 of \d+ sources, all history \(--lookback 0\)\./);
    expect(stdout).toMatch(/\nClaude Code +2 +\d+ +2 +0 /);
    expect(stdout).toMatch(/\nDevin +0 +0 +0 +0 +0 B +nothing here/);
    expect(existsSync(path.join(home, 'sleep-state'))).toBe(false);
  });

  it('streams the records as JSON Lines, then one result line with the counts', async () => {
    const { code, stdout } = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--lookback', '0', '--source', 'claude', '--json']);
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    expect(lines.map((line) => line.type)).toEqual(['session', 'session', 'result']);
    const roundTrip = lines.find((line) => line.type === 'session' && (line.toolCalls as unknown[]).length > 0);
    expect(roundTrip).toMatchObject({
      format: 'skillopt.sleep.session.v1',
      source: 'claude-code',
      project: PROJECT,
      task: 'Read task.md and answer',
      toolCalls: [{ name: 'Bash' }],
    });
    const result = lines[2] as Line & { sources: Array<{ source: string; sessions: number; bytesRead: number }> };
    expect(result).toMatchObject({ sessions: 2, scope: [PROJECT], limitReached: false });
    expect(result.sources).toEqual([expect.objectContaining({ source: 'claude-code', sessions: 2 })]);
    expect(result.sources[0]?.bytesRead).toBeGreaterThan(0);
  });

  it('reports a corrupt line with its file and line, and still reads the session', async () => {
    const file = path.join(sessions, 'session-say-hi.jsonl');
    appendFileSync(file, '{"type":"user","message":\n');
    const { code, stdout, stderr } = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--lookback', '0', '--source', 'claude-code', '--json']);
    expect(code).toBe(0);
    expect(stderr).toMatch(new RegExp(`Warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: .*passed over`));
    expect(jsonLines(stdout).filter((line) => line.type === 'session')).toHaveLength(2);
  });

  it('passes over sessions our own commands started, and sessions outside the project', async () => {
    writeFileSync(
      path.join(sessions, 'own.jsonl'),
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: `${OWN_SESSION_SENTINEL}\nMine the sessions` }, cwd: PROJECT, timestamp: '2026-11-29T07:00:00.000Z' })}\n`,
    );
    const own = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--lookback', '0', '--source', 'claude-code', '--json']);
    const result = jsonLines(own.stdout).at(-1) as Line & { sessions: number; sources: Array<{ skipped: Record<string, number> }> };
    expect(result.sessions).toBe(2);
    expect(result.sources[0]?.skipped['own-session']).toBe(1);

    const below = await skillopt(['sleep', 'harvest', '--project', `${PROJECT}/packages/api`, '--lookback', '0', '--source', 'claude-code', '--json']);
    expect((jsonLines(below.stdout).at(-1) as Line).sessions).toBe(0);
  });

  it('starts after the last completed night of the project, and leaves the checkpoint where it was', async () => {
    const store = createCheckpointStore(path.join(home, 'sleep-state'));
    const night = Date.parse('2026-11-30T00:00:00Z');
    await store.advance(PROJECT, ['claude-code'], night);
    const { code, stdout } = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--source', 'claude-code', '--json']);
    expect(code).toBe(0);
    const result = jsonLines(stdout).at(-1) as Line & { sources: Array<{ skipped: Record<string, number>; filesSkippedUnopened: number }> };
    expect(result.sessions).toBe(0);
    expect(result.window).toMatch(/after each project's last completed night/);
    expect(await store.read(PROJECT, 'claude-code')).toBe(night);
  });

  it('warns, naming the folder, when a source it was asked for is not there', async () => {
    const { code, stderr } = await skillopt(['sleep', 'harvest', '--source', 'claude-code', '--claude-home', 'no-claude-here', '--lookback', '0']);
    expect(code).toBe(0);
    expect(stderr).toContain(path.join(home, 'no-claude-here'));
  });

  it('reads every source found at its default location, each session once', async () => {
    // The sessions the real Codex, Copilot and Pi CLIs wrote, where those CLIs keep them under this home.
    const codexDay = path.join(home, '.codex', 'sessions', '2026', '11', '30');
    mkdirSync(codexDay, { recursive: true });
    cpSync(
      path.join(CLI_TRANSCRIPTS, 'codex', 'sessions', 'YYYY', 'MM', 'DD', 'rollout-tool-roundtrip.jsonl'),
      path.join(codexDay, 'rollout-tool-roundtrip.jsonl'),
    );
    cpSync(path.join(CLI_TRANSCRIPTS, 'pi', 'sessions'), path.join(home, '.pi', 'agent', 'sessions'), { recursive: true });
    cpSync(path.join(CLI_TRANSCRIPTS, 'copilot', 'session-state'), path.join(home, '.copilot', 'session-state'), { recursive: true });

    const { code, stdout } = await skillopt(['sleep', 'harvest', '--project', PROJECT, '--lookback', '0', '--json']);
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    const harvested = lines.filter((line) => line.type === 'session');
    expect(harvested.map((line) => line.source).sort()).toEqual(['claude-code', 'claude-code', 'codex', 'copilot-cli', 'pi']);
    for (const session of harvested.filter((line) => line.source !== 'claude-code'))
      expect(session).toMatchObject({ project: PROJECT, task: 'Read task.md and answer' });
    const result = lines.at(-1) as Line & { sources: Array<{ source: string; sessions: number }> };
    expect(result.sources.filter((source) => source.sessions > 0).map((source) => source.source)).toEqual(['claude-code', 'codex', 'copilot-cli', 'pi']);
  });

  it('names the nearest source for a misspelt one and exits 2', async () => {
    const { code, stdout, stderr } = await skillopt(['sleep', 'harvest', '--source', 'cluade-code', '--json']);
    expect(code).toBe(2);
    expect(jsonLines(stdout)).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'config-invalid' }) })]);
    expect(stderr).toContain('Did you mean "claude-code"?');
  });
});
