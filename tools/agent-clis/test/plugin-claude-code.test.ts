import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ProcessResult, runProcess } from '@skillopt/runtime-kit';
import { testWithAgentCli } from './helpers/agent-cli-cache';
import { startDenyProxy } from './helpers/deny-proxy';
import { startLoopbackModel } from './helpers/loopback-model';
import { PERSONA_SKILL_FILE, type PersonaTask, RESEARCHER_TASKS, researcherItems } from './helpers/researcher-persona';
import { jsonLines, LOOPBACK_API_KEY, SMOKE_SEARCH_PATH, TARGET_MODEL } from './helpers/smoke-session';

/**
 * Issue #30 item 5: @skillopt/plugin-claude-code with the real Claude Code CLI, in a config folder
 * of its own (CLAUDE_CONFIG_DIR, not ~/.claude). The plugin's installer registers it; Claude Code
 * validates and lists it; a `claude -p` session against the simulator on loopback ends, and the
 * plugin's SessionEnd hook records it. A night then finds that session through the record — a
 * night that, like a scheduled one, knows nothing of CLAUDE_CONFIG_DIR — beside the fixture
 * transcripts of the project, mines them and runs a dry-run night on them, staging nothing.
 */
const repository = path.resolve(__dirname, '..', '..', '..');
const pluginRoot = path.join(repository, 'packages', 'plugin-claude-code');
const pluginBin = path.join(pluginRoot, 'bin', 'skillopt-plugin-claude-code.js');
// What the plugin's commands run: the skillopt-sleep bin of the @skillopt/sleep the plugin depends on.
const sleepRunner = path.join(pluginRoot, 'scripts', 'skillopt-sleep.mjs');
const COMMAND_TIMEOUT_MS = 120_000;

const persona = RESEARCHER_TASKS;

/** What the researcher tells the agent after its first answer: the form they want, which no skill of theirs says yet. */
const INSTRUCTION = 'Please always give arXiv ids with their arXiv: prefix, inside <answer></answer> tags.';

/**
 * Fixture transcripts: the project's earlier Claude Code sessions, where Claude Code keeps them by
 * default. In each the researcher asks for a paper's arXiv id, gets a bare id, says which form they
 * want, gets it and is content: what a night can learn a rule from.
 */
function writeFixtureSessions(claudeHome: string, project: string, tasks: readonly PersonaTask[]): void {
  const folder = path.join(claudeHome, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  for (const [index, task] of tasks.entries()) {
    const common = {
      cwd: project,
      sessionId: `5e55a0e0-0000-4000-8000-00000000000${index}`,
      timestamp: new Date(Date.now() - (index + 1) * 3_600_000).toISOString(),
    };
    const bareId = task.reference.replace(/^arXiv:/, '');
    const turns: Array<[role: 'user' | 'assistant', text: string]> = [
      ['user', task.intent],
      ['assistant', `It is ${bareId}.`],
      ['user', INSTRUCTION],
      ['assistant', `<answer>${task.reference}</answer>`],
      ['user', 'thanks, perfect'],
    ];
    const lines = turns.map(([role, text], turn) => ({
      type: role,
      uuid: `t${turn}`,
      parentUuid: turn === 0 ? null : `t${turn - 1}`,
      message: { role, content: role === 'user' ? text : [{ type: 'text', text }] },
      ...common,
    }));
    writeFileSync(path.join(folder, `${common.sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
}

interface SessionEndRecord {
  format: string;
  source: string;
  sessionId: string;
  transcriptPath: string;
  project: string;
}

testWithAgentCli(
  'claude',
  'the Claude Code plugin: installed, validated and listed; its SessionEnd hook records a real session, which a dry-run night then replays beside the fixtures',
  async (cli) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'plugin-claude-code-'));
    const home = path.join(root, 'home');
    const claudeConfig = path.join(root, 'claude-config');
    const project = path.join(root, 'papers');
    mkdirSync(home);
    mkdirSync(project);
    const model = await startLoopbackModel(researcherItems());
    const proxy = await startDenyProxy();
    const base = { PATH: SMOKE_SEARCH_PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'dumb' };
    const claudeEnvironment = {
      ...base,
      ...cli.offlineEnvironment,
      CLAUDE_CONFIG_DIR: claudeConfig,
      ANTHROPIC_BASE_URL: model.origin,
      ANTHROPIC_API_KEY: LOOPBACK_API_KEY,
      HTTP_PROXY: proxy.url,
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1,localhost',
    };
    const run = (command: string, args: readonly string[], environment: Record<string, string>, stdin?: string): Promise<ProcessResult> =>
      runProcess({
        command,
        args,
        cwd: project,
        allowedEnvironmentVariables: [],
        extraEnvironmentVariables: environment,
        timeoutMs: COMMAND_TIMEOUT_MS,
        provider: 'skillopt',
        ...(stdin === undefined ? {} : { stdin }),
      });
    const expectSuccess = (result: ProcessResult, what: string): void => {
      if (result.exitCode !== 0) throw new Error(`${what} exited ${result.exitCode}:\n${result.stderr.slice(-3000)}\n${result.stdout.slice(-2000)}`);
    };
    try {
      // The plugin's installer, with the config folder Claude Code will run with.
      expectSuccess(await run(process.execPath, [pluginBin, 'install'], { ...base, CLAUDE_CONFIG_DIR: claudeConfig }), 'the install');

      const validated = await run(cli.binary, ['plugin', 'validate', pluginRoot], claudeEnvironment);
      expectSuccess(validated, 'claude plugin validate');
      expect(validated.stdout).toMatch(/Validation passed/);
      const listed = await run(cli.binary, ['plugin', 'list'], claudeEnvironment);
      expectSuccess(listed, 'claude plugin list');
      expect(listed.stdout).toContain('skillopt-sleep@skillopt');
      expect(listed.stdout).toMatch(/enabled/);

      // A real session, which Claude Code writes under its config folder, and whose end fires the hook.
      const question = persona[0] as PersonaTask;
      const session = await run(
        cli.binary,
        ['-p', '--output-format', 'json', '--model', TARGET_MODEL, '--permission-mode', 'dontAsk'],
        claudeEnvironment,
        question.intent,
      );
      expectSuccess(session, 'claude -p');
      const sessionId = String(jsonLines(session.stdout).find((event) => event.type === 'result')?.session_id);
      const records = readFileSync(path.join(home, '.skillopt-sleep', 'session-ends.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as SessionEndRecord);
      expect(records).toEqual([expect.objectContaining({ source: 'claude-code', sessionId, project })]);
      const transcript = (records[0] as SessionEndRecord).transcriptPath;
      expect(transcript.startsWith(`${claudeConfig}${path.sep}`)).toBe(true);
      // Nothing of the session's text was recorded.
      expect(JSON.stringify(records)).not.toContain(question.intent);

      // The night: no CLAUDE_CONFIG_DIR, as from cron. The record leads it to the session; the fixtures are in ~/.claude.
      writeFixtureSessions(path.join(home, '.claude'), project, persona.slice(1, 7));
      const night = { ...base };
      const harvest = await run(
        process.execPath,
        [sleepRunner, 'harvest', '--project', project, '--source', 'claude-code', '--lookback', '0', '--json'],
        night,
      );
      expectSuccess(harvest, 'skillopt-sleep harvest');
      const harvested = jsonLines(harvest.stdout).filter((line) => line.type === 'session');
      expect(harvested.map((line) => line.sessionId)).toContain(sessionId);
      expect(harvested).toHaveLength(7);

      const tasksFile = path.join(root, 'tasks.json');
      const mined = await run(
        process.execPath,
        [sleepRunner, 'mine', '--project', project, '--source', 'claude-code', '--lookback', '0', '--miner', 'llm', '--out', tasksFile, '--json'],
        night,
      );
      expectSuccess(mined, 'skillopt-sleep mine');
      const skill = path.join(project, '.claude', 'skills', 'research', 'SKILL.md');
      mkdirSync(path.dirname(skill), { recursive: true });
      writeFileSync(skill, readFileSync(PERSONA_SKILL_FILE, 'utf8'));
      const out = path.join(root, 'night');
      const dryRun = await run(process.execPath, [sleepRunner, 'dry-run', '--tasks', tasksFile, '--skill', skill, '--out', out, '--json'], night);
      expectSuccess(dryRun, 'skillopt-sleep dry-run');
      // The night replayed every task, the recorded session's among them, and reached a decision.
      const { tasks } = JSON.parse(readFileSync(tasksFile, 'utf8')) as { tasks: Array<{ sourceSessions: string[] }> };
      expect(tasks).toHaveLength(7);
      expect(tasks.some((task) => task.sourceSessions.includes(sessionId))).toBe(true);
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
        dryRun: boolean;
        outcome: string;
        tasks: { excluded: unknown[] };
      };
      expect(report.dryRun).toBe(true);
      expect(report.tasks.excluded).toEqual([]);
      expect(['accepted', 'rejected']).toContain(report.outcome);
      // The night read the skill document and wrote nothing into the project.
      expect(readFileSync(skill, 'utf8')).toBe(readFileSync(PERSONA_SKILL_FILE, 'utf8'));
      expect(proxy.attempts).toEqual([]);
    } finally {
      await model.close();
      await proxy.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
  600_000,
);
