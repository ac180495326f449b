import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSleepStatus, statusSummary } from '../src/command-line/status-run.js';
import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { appendNightRecord } from '../src/project-state/night-history.js';
import { projectStateLayout } from '../src/project-state/project-state.js';
import { recordSessionEnd } from '../src/session-end/record-session-end.js';

let workDirectory: string;
let stateDirectory: string;
let project: string;
beforeEach(() => {
  workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-status-ends-'));
  stateDirectory = path.join(workDirectory, 'state');
  project = path.join(workDirectory, 'api');
  mkdirSync(project);
});
afterEach(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

async function sessionEnded(cwd: string, at: string): Promise<void> {
  await recordSessionEnd({
    source: 'claude-code',
    hookInput: { session_id: `s-${at}`, transcript_path: path.join(workDirectory, 'cfg', `${at}.jsonl`), cwd },
    environment: { SKILLOPT_SLEEP_HOME: stateDirectory },
    now: new Date(at),
  });
}

async function nightStarted(at: string): Promise<void> {
  const layout = projectStateLayout(stateDirectory, project);
  mkdirSync(layout.directory, { recursive: true });
  await appendNightRecord(layout.directory, {
    night: 1,
    nightId: 'night-1',
    project,
    startedAt: at,
    endedAt: at,
    outcome: 'no-tasks',
    tasks: 0,
    skills: [],
    harvest: { sources: ['claude-code'], sessions: 0 },
    checkpointAdvanced: true,
  });
}

const status = () => readSleepStatus({ project, stateDirectory, workingDirectory: workDirectory });

describe('sleep status, of the sessions the session-end hooks recorded', () => {
  test('none recorded', async () => {
    const none = await status();
    expect(none).toMatchObject({ sessionsEndedSinceLastNight: 0, lastSessionEndedAt: null });
    expect(statusSummary(none)).toContain("Sessions ended (no night yet): none recorded by an agent's session-end hook.");
  });

  test('counts the project’s sessions (a folder below it too) that ended since its last night started, and the newest', async () => {
    await sessionEnded(project, '2026-12-01T09:00:00.000Z');
    await sessionEnded(path.join(project, 'packages', 'web'), '2026-12-02T09:00:00.000Z');
    await sessionEnded(path.join(workDirectory, 'api-other'), '2026-12-03T09:00:00.000Z');
    const beforeAnyNight = await status();
    expect(beforeAnyNight).toMatchObject({ sessionsEndedSinceLastNight: 2, lastSessionEndedAt: '2026-12-02T09:00:00.000Z' });

    await nightStarted('2026-12-01T12:00:00.000Z');
    await sessionEnded(project, '2026-12-01T23:30:00.000Z');
    const afterNight = await status();
    expect(afterNight).toMatchObject({ sessionsEndedSinceLastNight: 2, lastSessionEndedAt: '2026-12-02T09:00:00.000Z' });
    expect(statusSummary(afterNight)).toContain('Sessions ended since the last night: 2 (the newest ended 2026-12-02T09:00:00.000Z).');

    const written: string[] = [];
    const io = { write: (text: string) => written.push(text), writeError: () => undefined, workingDirectory: workDirectory, fallbackDirectories: [] };
    expect(await runSleepCommandLine(['status', '--project', 'api', '--state-dir', 'state', '--json'], io)).toBe(0);
    expect(JSON.parse(written.join(''))).toMatchObject({ type: 'result', sessionsEndedSinceLastNight: 2, lastSessionEndedAt: '2026-12-02T09:00:00.000Z' });
  });
});
