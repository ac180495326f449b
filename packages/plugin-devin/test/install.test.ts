import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPluginTestHome, folderSnapshot, type PluginTestHome } from '@skillopt/sleep/testing';

// The hook tests run the hook as Devin does, a shell and a Node start for each input, which a
// loaded machine slows many times over: the limit is there to catch a hang, not to time them.
jest.setTimeout(300_000);

/**
 * The Devin plugin installed into a temporary project: the SessionEnd hook appended to the project's
 * .devin/hooks.v1.json after the user's own, the rules placed, the `devin mcp add` command printed; a
 * second install changes nothing; uninstall leaves the project as it was; a malformed hooks file
 * stops the install with nothing written. The hook itself runs as Devin runs it.
 */
const packageRoot = path.resolve(__dirname, '..');
const HOOK_SCRIPT = path.join(packageRoot, 'hooks', 'session-end.mjs');
const TOOLS = ['sleep_status', 'sleep_harvest', 'sleep_dry_run', 'sleep_run', 'sleep_adopt', 'sleep_schedule', 'sleep_unschedule'];

/** What the Devin CLI gives a SessionEnd hook on stdin: a slug for the session, no folder, no transcript. */
const DEVIN_SESSION_END = {
  session_id: 'bramble-scorpion',
  prompt_id: '6c1f2b9e-0000-4000-8000-000000000001',
  hook_event_name: 'SessionEnd',
  reason: 'other',
};

let testHome: PluginTestHome;
let root: string;
let home: string;
let project: string;
beforeEach(() => {
  testHome = createPluginTestHome(packageRoot, 'plugin-devin-');
  ({ root, home } = testHome);
  project = path.join(root, 'project');
  mkdirSync(project);
});
afterEach(() => testHome.remove());

const run = (action: 'install' | 'uninstall', args: string[] = [], environment: Record<string, string> = {}) => testHome.run(action, args, environment);

const tree = folderSnapshot;

const hooksFile = () => path.join(project, '.devin', 'hooks.v1.json');
const rules = () => readFileSync(path.join(packageRoot, 'rules', 'skillopt-sleep.md'), 'utf8');

interface HookRun {
  code: number | null;
  stderr: string;
}

/** `command` run by a shell, as Devin runs a command hook: `input` on stdin, Devin's project variable set. */
function runHookCommand(command: string, input: string, environment: Record<string, string>): Promise<HookRun> {
  const child = spawn('/bin/sh', ['-c', command], { cwd: project, env: { PATH: process.env.PATH ?? '', ...environment }, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/** Hooks of the user's, as they wrote them: a PreToolUse guard and a SessionEnd logger of their own. */
const USER_HOOKS = {
  PreToolUse: [{ matcher: 'exec', hooks: [{ type: 'command', command: './scripts/check-command.sh' }] }],
  SessionEnd: [{ matcher: '', hooks: [{ type: 'command', command: "sh -c 'date >> ~/.devin-sessions'" }] }],
};

describe('skillopt-plugin-devin install --project', () => {
  it("appends the SessionEnd hook after the user's, places the rules, and prints the devin mcp add command", async () => {
    mkdirSync(path.dirname(hooksFile()));
    writeFileSync(hooksFile(), `${JSON.stringify(USER_HOOKS, null, 2)}\n`);
    const before = tree(project);

    const output = await run('install', ['--project', project]);
    const ours = { matcher: '', hooks: [{ type: 'command', command: `node "${HOOK_SCRIPT}"`, timeout: 5 }] };
    expect(JSON.parse(readFileSync(hooksFile(), 'utf8'))).toEqual({ ...USER_HOOKS, SessionEnd: [...USER_HOOKS.SessionEnd, ours] });
    expect(readFileSync(path.join(project, '.devin', 'rules', 'skillopt-sleep.md'), 'utf8')).toBe(rules());
    expect(output).toContain(`devin mcp add skillopt-sleep -- node "${path.join(packageRoot, 'bin', 'skillopt-sleep-mcp-devin.js')}"`);
    expect(existsSync(path.join(packageRoot, 'bin', 'skillopt-sleep-mcp-devin.js'))).toBe(true);

    const installed = tree(project);
    await run('install', ['--project', project]);
    expect(tree(project)).toEqual(installed);

    await run('uninstall', ['--project', project]);
    expect(tree(project)).toEqual(before);
  });

  it('creates the hooks file and the .devin folder when the project has none, and takes them out again', async () => {
    await run('install', ['--project', project]);
    expect(Object.keys(tree(project)).sort()).toEqual([path.join('.devin', 'hooks.v1.json'), path.join('.devin', 'rules', 'skillopt-sleep.md')]);
    await run('uninstall', ['--project', project]);
    expect(readdirSync(project)).toEqual([]);
  });

  it('refuses a malformed hooks file, naming where it breaks, and writes nothing', async () => {
    mkdirSync(path.dirname(hooksFile()));
    writeFileSync(hooksFile(), '{\n  "SessionEnd": [\n    { "matcher": "" },\n  ]\n}\n');
    const before = tree(project);
    await expect(run('install', ['--project', project])).rejects.toThrow(/hooks\.v1\.json is not valid JSON \(line 4, column \d+\); nothing was written/);
    expect(tree(project)).toEqual(before);
  });

  it('places nothing for the user, and says to install per project and how to register the server', async () => {
    const output = await run('install');
    expect(output).toContain('skillopt-plugin-devin install --project <folder>');
    expect(output).toContain('devin mcp add -s user skillopt-sleep -- node');
    expect(readdirSync(home)).toEqual(['.skillopt-sleep']);
    await run('uninstall');
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('the SessionEnd hook', () => {
  it('run as the installed command with what Devin sends, records one session of the project and exits 0', async () => {
    await run('install', ['--project', project]);
    const installed = JSON.parse(readFileSync(hooksFile(), 'utf8')) as { SessionEnd: Array<{ hooks: Array<{ command: string }> }> };
    const command = installed.SessionEnd[0]?.hooks[0]?.command as string;
    const stateDirectory = path.join(root, 'state');

    const result = await runHookCommand(command, JSON.stringify(DEVIN_SESSION_END), { SKILLOPT_SLEEP_HOME: stateDirectory, DEVIN_PROJECT_DIR: project });
    expect(result).toEqual({ code: 0, stderr: '' });
    const lines = readFileSync(path.join(stateDirectory, 'session-ends.jsonl'), 'utf8').split('\n').slice(0, -1);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        format: 'skillopt.sleep.session-end.v1',
        source: 'devin',
        sessionId: 'bramble-scorpion',
        transcriptPath: null,
        project,
        reason: 'other',
        endedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it('exits 0 with one line on stderr and records nothing when stdin is not a session end', async () => {
    const stateDirectory = path.join(root, 'state');
    for (const input of ['say hi {', '', '{"hook_event_name":"SessionEnd"}']) {
      const result = await runHookCommand(`node "${HOOK_SCRIPT}"`, input, { SKILLOPT_SLEEP_HOME: stateDirectory, DEVIN_PROJECT_DIR: project });
      expect([input, result.code]).toEqual([input, 0]);
      expect(result.stderr).toMatch(/^skillopt-sleep session-end hook: nothing recorded: [^\n]+\n$/);
    }
    expect(existsSync(path.join(stateDirectory, 'session-ends.jsonl'))).toBe(false);
  });
});

describe("the plugin's files", () => {
  it('the rules name every tool of the server', () => {
    expect(TOOLS.filter((tool) => !rules().includes(`\`${tool}\``))).toEqual([]);
  });

  it('the example config starts the same server the install tells Devin to add', () => {
    const example = JSON.parse(readFileSync(path.join(packageRoot, 'mcp-config.example.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = example.mcpServers['skillopt-sleep'];
    expect(server?.command).toBe('node');
    expect(server?.args.map((arg) => path.basename(arg))).toEqual(['skillopt-sleep-mcp-devin.js']);
  });
});
