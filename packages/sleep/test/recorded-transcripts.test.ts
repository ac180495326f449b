import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { harvestSessions } from '../src/harvest/harvest-sessions.js';
import type { SourceReport } from '../src/harvest/harvest-report.js';
import { projectScope } from '../src/harvest/project-scope.js';
import type { HarvestedSession } from '../src/harvest/session-record.js';
import type { TimeWindowSettings } from '../src/harvest/time-window.js';
import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { recordSessionEnd } from '../src/session-end/record-session-end.js';
import { claudeCodeSource } from '../src/sources/claude-code/claude-code-source.js';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

/** A real Claude Code 2.1 transcript, of a session in /home/user/project. */
const FIXTURE = path.join(CLI_TRANSCRIPTS, 'claude/projects/-home-user-project/session-say-hi.jsonl');
const PROJECT = '/home/user/project';
const SESSION = '3734c9a9-1cac-41c1-b7ff-1566738c8461';

let home: string;
beforeEach(() => {
  // The harvest's home: its ~/.claude holds no session; Claude Code ran with another config dir.
  home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'skillopt-recorded-')));
  mkdirSync(path.join(home, '.claude', 'projects', '-home-user-project'), { recursive: true });
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The fixture as Claude Code wrote it under a config dir of its own, e.g. `CLAUDE_CONFIG_DIR=<home>/cfg4`. */
function transcriptUnder(configDirectory: string, name = `${SESSION}.jsonl`, slugFolder = '-home-user-project'): string {
  const file = path.join(home, configDirectory, 'projects', slugFolder, name);
  mkdirSync(path.dirname(file), { recursive: true });
  copyFileSync(FIXTURE, file);
  return file;
}

/** What the plugin's hook records as that session ends. */
async function recordEnd(transcriptPath: string, cwd = PROJECT): Promise<void> {
  await recordSessionEnd({
    source: 'claude-code',
    hookInput: { session_id: path.basename(transcriptPath, '.jsonl'), transcript_path: transcriptPath, cwd, hook_event_name: 'SessionEnd', reason: 'other' },
    environment: { HOME: home },
  });
}

async function harvest(options: { scope?: readonly string[]; window?: Omit<TimeWindowSettings, 'projects'> } = {}) {
  const run = harvestSessions({
    sources: [claudeCodeSource],
    scope: projectScope(options.scope ?? [PROJECT]),
    windowFor: () => options.window ?? {},
    environment: { HOME: home },
  });
  const sessions: HarvestedSession[] = [];
  for await (const session of run.sessions) sessions.push(session);
  return { sessions, report: run.reports[0] as SourceReport };
}

describe('the Claude Code transcripts the session-end hooks recorded', () => {
  test('are harvested from outside the harvest’s claude home', async () => {
    const transcript = transcriptUnder('cfg4');
    await recordEnd(transcript);
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ source: 'claude-code', sessionId: SESSION, project: PROJECT, task: 'say hi', location: transcript });
    expect(report).toMatchObject({ filesFound: 1, filesRead: 1, recordedFilesFound: 1, recordedFilesGone: 0, warnings: [], corruptLineCount: 0 });
    expect(report.locations).toEqual([path.join(home, '.claude', 'projects'), path.join(home, '.skillopt-sleep', 'session-ends.jsonl')]);
  });

  test('are read once each, by real path, and not again when they lie in the claude home', async () => {
    const transcript = transcriptUnder('cfg4');
    symlinkSync(path.join(home, 'cfg4'), path.join(home, 'cfg4-link'));
    await recordEnd(transcript);
    await recordEnd(transcript);
    await recordEnd(path.join(home, 'cfg4-link', 'projects', '-home-user-project', `${SESSION}.jsonl`));
    const inHome = transcriptUnder('.claude', 'in-home.jsonl');
    await recordEnd(inHome);
    const { sessions, report } = await harvest();
    expect(sessions.map((session) => session.location).sort()).toEqual([inHome, transcript].sort());
    expect(report).toMatchObject({ filesFound: 2, filesRead: 2, recordedFilesFound: 1 });
  });

  test('one removed since is passed over quietly, and counted', async () => {
    const transcript = transcriptUnder('cfg4');
    await recordEnd(transcript);
    await recordEnd(path.join(home, 'gone', 'projects', '-home-user-project', 'gone.jsonl'));
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    expect(report).toMatchObject({ recordedFilesFound: 1, recordedFilesGone: 1, warnings: [] });
  });

  test('keep the scope rule: a slug folder of another project is not opened', async () => {
    await recordEnd(transcriptUnder('cfg4'));
    const { sessions, report } = await harvest({ scope: ['/home/user/elsewhere'] });
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesFound: 1, filesRead: 0, filesSkippedUnopened: 1, recordedFilesFound: 1 });
    expect(report.skipped['outside-scope']).toBe(1);
  });

  test('keep the window rule: a file last written before the window is not opened', async () => {
    const transcript = transcriptUnder('cfg4');
    const old = new Date(Date.now() - 30 * 86_400_000);
    utimesSync(transcript, old, old);
    await recordEnd(transcript);
    const { sessions, report } = await harvest({ window: { explicitStart: Date.now() - 86_400_000 } });
    expect(sessions).toEqual([]);
    expect(report).toMatchObject({ filesSkippedUnopened: 1, filesRead: 0 });
    expect(report.skipped['outside-window']).toBe(1);
  });

  test('keep the session’s own rules: a subagent’s transcript or another source’s record is not read', async () => {
    await recordEnd(transcriptUnder('cfg4', 'agent-a1b2.jsonl'));
    await recordSessionEnd({
      source: 'codex',
      hookInput: { session_id: 'codex-1', transcript_path: transcriptUnder('codex-home'), cwd: PROJECT },
      environment: { HOME: home },
    });
    const { sessions, report } = await harvest();
    expect(sessions).toEqual([]);
    expect(report.recordedFilesFound).toBe(0);
  });

  test('a torn line of the log is reported with its file and line, and the rest still read', async () => {
    await recordEnd(transcriptUnder('cfg4'));
    const log = path.join(home, '.skillopt-sleep', 'session-ends.jsonl');
    appendFileSync(log, '{"format":"skillopt.sleep.session-end.v1","source":"clau\n');
    const { sessions, report } = await harvest();
    expect(sessions).toHaveLength(1);
    expect(report.corruptLines).toEqual([{ file: log, line: 2, message: expect.stringContaining('not JSON') }]);
  });

  test('harvest --state-dir reads the log of that state directory', async () => {
    const transcript = transcriptUnder('cfg4');
    const stateDirectory = path.join(home, 'state');
    await recordSessionEnd({
      source: 'claude-code',
      hookInput: { session_id: SESSION, transcript_path: transcript, cwd: PROJECT },
      environment: { SKILLOPT_SLEEP_HOME: stateDirectory },
    });
    const written: string[] = [];
    const flags = ['--source', 'claude-code', '--project', PROJECT, '--lookback', '0', '--claude-home', '.claude', '--json'];
    const io = { write: (text: string) => written.push(text), writeError: () => undefined, workingDirectory: home, fallbackDirectories: [] };
    expect(await runSleepCommandLine(['harvest', ...flags, '--state-dir', 'state'], io)).toBe(0);
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.type === 'session').map((line) => line.location)).toEqual([transcript]);
    expect(lines.at(-1)).toMatchObject({ type: 'result', sessions: 1, sources: [{ source: 'claude-code', recordedFilesFound: 1 }] });
    written.length = 0;
    expect(await runSleepCommandLine(['harvest', ...flags, '--state-dir', 'other-state'], io)).toBe(0);
    expect(JSON.parse(written.join('').trim().split('\n').at(-1) as string)).toMatchObject({ type: 'result', sessions: 0 });
  });
});
