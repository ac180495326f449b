import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { recordSessionEnd } from '../src/session-end/record-session-end.js';
import { runSessionEndHook } from '../src/session-end/session-end-hook.js';
import { readSessionEndRecords } from '../src/session-end/session-end-log.js';
import { SESSION_END_LOG_FILE } from '../src/session-end/session-end-record.js';
import { loadedModules, SOURCE_ROOT } from './loaded-modules.js';

const DIST = path.join(__dirname, '..', 'dist');

/** What Claude Code 2.1.197 gives a plugin's SessionEnd hook on stdin. */
const CLAUDE_CODE_INPUT = {
  session_id: '3d29c0de-0000-4000-8000-000000000001',
  transcript_path: '/tmp/ccx/cfg4/projects/-tmp-ccx-ws/3d29c0de-0000-4000-8000-000000000001.jsonl',
  cwd: '/tmp/ccx/ws',
  prompt_id: 'f00d0000-0000-4000-8000-000000000002',
  hook_event_name: 'SessionEnd',
  reason: 'other',
};

/** What the Devin CLI gives a SessionEnd hook on stdin: no cwd and no transcript (the project is in DEVIN_PROJECT_DIR). */
const DEVIN_INPUT = {
  session_id: 'bramble-scorpion',
  prompt_id: 'f00d0000-0000-4000-8000-000000000003',
  hook_event_name: 'SessionEnd',
  reason: 'other',
};

let workDirectory: string;
let stateDirectory: string;
beforeEach(() => {
  workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-session-end-'));
  stateDirectory = path.join(workDirectory, 'state');
});
afterEach(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

function logLines(): string[] {
  return readFileSync(path.join(stateDirectory, SESSION_END_LOG_FILE), 'utf8').split('\n').slice(0, -1);
}

// A test that starts hook processes: each is a Node start and an import, a fraction of a second
// on a quiet machine and many seconds on a loaded one. The limit is there to catch a hang.
const HOOK_PROCESSES_TEST_TIMEOUT_MS = 300_000;

interface HookProcess {
  code: number | null;
  stderr: string;
}

/** A plugin's hook script as it ships, importing the built entry, run as its own process. */
function writeHookScript(format: 'esm' | 'cjs' = 'esm'): string {
  const script = path.join(workDirectory, format === 'esm' ? 'session-end-hook.mjs' : 'session-end-hook.cjs');
  const body =
    format === 'esm'
      ? `import { runSessionEndHook } from ${JSON.stringify(pathToFileURL(path.join(DIST, 'session-end.js')).href)};\nawait runSessionEndHook('claude-code');\n`
      : `const { runSessionEndHook } = require(${JSON.stringify(path.join(DIST, 'session-end.cjs'))});\nrunSessionEndHook('claude-code');\n`;
  writeFileSync(script, body);
  return script;
}

/** Runs a hook script with `input` on stdin (undefined: stdin left open, never written). */
function runHook(script: string, input: string | undefined, environment: Record<string, string>): Promise<HookProcess> {
  const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', ...environment }, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  if (input !== undefined) child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });
}

describe('recordSessionEnd', () => {
  test('appends one line naming the session, its transcript and its project; nothing said in it', async () => {
    const record = await recordSessionEnd({
      source: 'claude-code',
      hookInput: { ...CLAUDE_CODE_INPUT, prompt: 'please fix the secret login bug' },
      environment: { SKILLOPT_SLEEP_HOME: stateDirectory, CLAUDE_PROJECT_DIR: '/tmp/ccx/ws' },
      now: new Date('2026-12-01T10:00:00.000Z'),
    });
    const lines = logLines();
    expect(lines).toEqual([
      '{"format":"skillopt.sleep.session-end.v1","source":"claude-code","sessionId":"3d29c0de-0000-4000-8000-000000000001",' +
        '"transcriptPath":"/tmp/ccx/cfg4/projects/-tmp-ccx-ws/3d29c0de-0000-4000-8000-000000000001.jsonl","project":"/tmp/ccx/ws",' +
        '"reason":"other","endedAt":"2026-12-01T10:00:00.000Z"}',
    ]);
    expect(JSON.parse(lines[0] as string)).toEqual(record);
    expect(lines[0]).not.toContain('secret login');
    expect(lines[0]).not.toContain(CLAUDE_CODE_INPUT.prompt_id);
    if (process.platform !== 'win32') {
      expect(statSync(stateDirectory).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(stateDirectory, SESSION_END_LOG_FILE)).mode & 0o777).toBe(0o600);
    }
  });

  test('the project is CLAUDE_PROJECT_DIR, else the cwd; relative paths are made absolute; a missing transcript is null', async () => {
    const environment = { SKILLOPT_SLEEP_HOME: stateDirectory };
    const opened = await recordSessionEnd({
      source: 'claude-code',
      hookInput: CLAUDE_CODE_INPUT,
      environment: { ...environment, CLAUDE_PROJECT_DIR: '/tmp/ccx' },
    });
    expect(opened.project).toBe('/tmp/ccx');
    const bare = await recordSessionEnd({ source: 'codex', hookInput: { session_id: 's-2', cwd: '/work/api', transcript_path: 'rollout.jsonl' }, environment });
    expect(bare).toMatchObject({ source: 'codex', project: '/work/api', transcriptPath: '/work/api/rollout.jsonl', reason: null });
    const without = await recordSessionEnd({ source: 'claude-code', hookInput: { session_id: 's-3', cwd: '/work/api' }, environment });
    expect(without.transcriptPath).toBeNull();
    expect(logLines()).toHaveLength(3);
  });

  test("a Devin session's project is DEVIN_PROJECT_DIR, and it names no transcript", async () => {
    const environment = { SKILLOPT_SLEEP_HOME: stateDirectory, CLAUDE_PROJECT_DIR: '/work/elsewhere' };
    const record = await recordSessionEnd({ source: 'devin', hookInput: DEVIN_INPUT, environment: { ...environment, DEVIN_PROJECT_DIR: '/work/api' } });
    expect(record).toMatchObject({ source: 'devin', sessionId: 'bramble-scorpion', project: '/work/api', transcriptPath: null, reason: 'other' });
    await expect(recordSessionEnd({ source: 'devin', hookInput: DEVIN_INPUT, environment })).rejects.toThrow(
      'names no folder (cwd) and DEVIN_PROJECT_DIR is not set',
    );
    expect(logLines()).toHaveLength(1);
  });

  test('the state directory is SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep of HOME', async () => {
    await recordSessionEnd({ source: 'claude-code', hookInput: CLAUDE_CODE_INPUT, environment: { HOME: workDirectory } });
    expect((await readSessionEndRecords(path.join(workDirectory, '.skillopt-sleep'))).records).toHaveLength(1);
  });

  test('an input that names no session, no folder, or an unknown source is refused and nothing is written', async () => {
    const environment = { SKILLOPT_SLEEP_HOME: stateDirectory };
    await expect(recordSessionEnd({ source: 'claude-code', hookInput: { cwd: '/work/api' }, environment })).rejects.toThrow('session_id');
    await expect(recordSessionEnd({ source: 'claude-code', hookInput: { session_id: 's' }, environment })).rejects.toThrow('names no folder');
    await expect(recordSessionEnd({ source: 'claude' as never, hookInput: CLAUDE_CODE_INPUT, environment })).rejects.toThrow('unknown source');
    await expect(
      recordSessionEnd({ source: 'claude-code', hookInput: { ...CLAUDE_CODE_INPUT, transcript_path: `/${'x'.repeat(5000)}` }, environment }),
    ).rejects.toThrow('longer than 4096 bytes');
    expect((await readSessionEndRecords(stateDirectory)).records).toEqual([]);
  });
});

describe('readSessionEndRecords', () => {
  test('passes over and counts lines that are not records, and keeps those since a time', async () => {
    const environment = { SKILLOPT_SLEEP_HOME: stateDirectory };
    await recordSessionEnd({ source: 'claude-code', hookInput: CLAUDE_CODE_INPUT, environment, now: new Date('2026-12-01T00:00:00.000Z') });
    const log = path.join(stateDirectory, SESSION_END_LOG_FILE);
    writeFileSync(log, `${readFileSync(log, 'utf8')}{"format":"skillopt.sleep.session-end.v1","sour\nnot json\n{"format":"other"}\n\n`);
    await recordSessionEnd({ source: 'codex', hookInput: CLAUDE_CODE_INPUT, environment, now: new Date('2026-12-03T00:00:00.000Z') });
    const all = await readSessionEndRecords(stateDirectory);
    expect(all.records.map((record) => record.source)).toEqual(['claude-code', 'codex']);
    expect(all.corruptLineCount).toBe(3);
    const recent = await readSessionEndRecords(stateDirectory, { since: new Date('2026-12-02T00:00:00.000Z') });
    expect(recent.records.map((record) => record.source)).toEqual(['codex']);
  });

  test('a log that does not exist holds no record', async () => {
    expect(await readSessionEndRecords(path.join(workDirectory, 'nowhere'))).toEqual({ records: [], corruptLineCount: 0 });
  });
});

describe('runSessionEndHook', () => {
  test('records the session its stdin describes', async () => {
    const record = await runSessionEndHook('claude-code', {
      stdin: Readable.from([Buffer.from(JSON.stringify(CLAUDE_CODE_INPUT))]),
      environment: { SKILLOPT_SLEEP_HOME: stateDirectory },
    });
    expect(record).toMatchObject({ sessionId: CLAUDE_CODE_INPUT.session_id, project: '/tmp/ccx/ws' });
    expect(logLines()).toHaveLength(1);
  });

  test(
    'concurrent hooks in separate processes each leave one whole line',
    async () => {
      const script = writeHookScript();
      const hooks = 24;
      // Lines of some 3 KiB, near the size at which a torn write would show.
      const long = 'n'.repeat(1400);
      const results = await Promise.all(
        Array.from({ length: hooks }, (_, index) =>
          runHook(
            script,
            JSON.stringify({ ...CLAUDE_CODE_INPUT, session_id: `session-${index}`, transcript_path: `/tmp/${long}/${index}.jsonl`, cwd: `/work/${long}` }),
            { SKILLOPT_SLEEP_HOME: stateDirectory },
          ),
        ),
      );
      expect(results.map((result) => [result.code, result.stderr])).toEqual(Array.from({ length: hooks }, () => [0, '']));
      const lines = logLines();
      expect(lines).toHaveLength(hooks);
      const sessions = lines.map((line) => JSON.parse(line).sessionId as string);
      expect(new Set(sessions)).toEqual(new Set(Array.from({ length: hooks }, (_, index) => `session-${index}`)));
      expect((await readSessionEndRecords(stateDirectory)).corruptLineCount).toBe(0);
    },
    HOOK_PROCESSES_TEST_TIMEOUT_MS,
  );

  test(
    'the CommonJS entry records the same',
    async () => {
      const result = await runHook(writeHookScript('cjs'), JSON.stringify(CLAUDE_CODE_INPUT), { SKILLOPT_SLEEP_HOME: stateDirectory });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(logLines()).toHaveLength(1);
    },
    HOOK_PROCESSES_TEST_TIMEOUT_MS,
  );

  test(
    'garbage on stdin, an empty stdin or an unwritable state directory: exit 0, one short line on stderr, nothing recorded',
    async () => {
      const script = writeHookScript();
      const blocked = path.join(workDirectory, 'a-file');
      writeFileSync(blocked, 'not a folder');
      const cases: Array<[string, string, Record<string, string>]> = [
        ['garbage', 'say hi {', { SKILLOPT_SLEEP_HOME: stateDirectory }],
        ['empty', '', { SKILLOPT_SLEEP_HOME: stateDirectory }],
        ['not a session end', '{"hook_event_name":"SessionEnd"}', { SKILLOPT_SLEEP_HOME: stateDirectory }],
        ['unwritable', JSON.stringify(CLAUDE_CODE_INPUT), { SKILLOPT_SLEEP_HOME: path.join(blocked, 'state') }],
      ];
      for (const [name, input, environment] of cases) {
        const result = await runHook(script, input, environment);
        expect([name, result.code]).toEqual([name, 0]);
        expect(result.stderr).toMatch(/^skillopt-sleep session-end hook: nothing recorded: [^\n]{1,200}\n$/);
        expect(result.stderr).not.toContain('say hi');
      }
      expect(await readSessionEndRecords(stateDirectory)).toEqual({ records: [], corruptLineCount: 0 });
    },
    HOOK_PROCESSES_TEST_TIMEOUT_MS,
  );

  test(
    'a stdin that never ends is let go at SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS, which the message names',
    async () => {
      const result = await runHook(writeHookScript(), undefined, { SKILLOPT_SLEEP_HOME: stateDirectory, SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS: '300' });
      expect(result).toEqual({
        code: 0,
        stderr: 'skillopt-sleep session-end hook: nothing recorded: no hook input within 300 ms (SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS)\n',
      });
    },
    HOOK_PROCESSES_TEST_TIMEOUT_MS,
  );

  test(
    'a SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS that is not a whole number of milliseconds records nothing and says so',
    async () => {
      const script = writeHookScript();
      for (const timeout of ['soon', '0', '1.5', '2147483648']) {
        const result = await runHook(script, JSON.stringify(CLAUDE_CODE_INPUT), {
          SKILLOPT_SLEEP_HOME: stateDirectory,
          SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS: timeout,
        });
        expect([timeout, result.code, result.stderr]).toEqual([
          timeout,
          0,
          `skillopt-sleep session-end hook: nothing recorded: SKILLOPT_SLEEP_HOOK_INPUT_TIMEOUT_MS is not a whole number of milliseconds from 1 to 2147483647: "${timeout}"\n`,
        ]);
      }
      expect(await readSessionEndRecords(stateDirectory)).toEqual({ records: [], corruptLineCount: 0 });
    },
    HOOK_PROCESSES_TEST_TIMEOUT_MS,
  );
});

describe('the session-end entry', () => {
  test('loads zod and a few small modules: no harvest source, no checkpoint store, no core, no sql.js', () => {
    const { files, packages } = loadedModules('session-end.ts');
    expect([...packages]).toEqual(['zod']);
    const relative = [...files].map((file) => path.relative(SOURCE_ROOT, file)).sort();
    expect(relative).toEqual([
      'checkpoints/state-directory.ts',
      'harvest/json-lines.ts',
      'harvest/line-reader.ts',
      'harvest/session-record.ts',
      'session-end.ts',
      'session-end/record-session-end.ts',
      'session-end/session-end-hook.ts',
      'session-end/session-end-log.ts',
      'session-end/session-end-record.ts',
    ]);
  });

  test('its built files import only zod and Node’s own modules, in either format', () => {
    const IMPORTED = /(?:from\s+|require\()["']([^"']+)["']/g;
    for (const entry of ['session-end.js', 'session-end.cjs']) {
      const packages = new Set<string>();
      const visit = (file: string, seen: Set<string>) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORTED)) {
          if (specifier === undefined) continue;
          if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier), seen);
          else packages.add(specifier.replace(/^node:/, ''));
        }
      };
      visit(path.join(DIST, entry), new Set());
      const builtins = new Set(['crypto', 'fs', 'fs/promises', 'os', 'path', 'url', 'module']);
      expect([entry, [...packages].filter((name) => !builtins.has(name))]).toEqual([entry, ['zod']]);
    }
  });
});
