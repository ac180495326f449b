import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ProcessResult, runProcess } from '@skillopt/runtime-kit';
import { testWithAgentCli } from './helpers/agent-cli-cache';
import type { LedgerLine } from './helpers/demo-training';
import { startDenyProxy } from './helpers/deny-proxy';
import { startLoopbackModel } from './helpers/loopback-model';
import { RESEARCHER_TASKS, researcherItems } from './helpers/researcher-persona';
import { jsonLines, LOOPBACK_API_KEY, SMOKE_SEARCH_PATH, TARGET_MODEL } from './helpers/smoke-session';

/**
 * Issue #29 item 4: a live night, end to end, on sessions the real Claude Code wrote. A researcher
 * asks Claude Code (in an isolated HOME, against the simulator on loopback) for arXiv ids, one
 * session per question: the agent answers with its habits (a bare id, no answer tags), the
 * researcher says which form they want, the agent complies and is thanked. `skillopt sleep run`
 * harvests those transcripts from <HOME>/.claude/projects, the simulator as the LLM miner turns each
 * into a task checked on the answer the researcher accepted, the tasks are replayed through Claude
 * Code itself (backends-claude-code), and the gate accepts the rules the researcher had to ask for.
 * The proposal is staged, adopted into the project's skill document, undone, and refused once the
 * researcher has written that file themselves.
 */
const repository = path.resolve(__dirname, '..', '..', '..');
const cliEntry = path.join(repository, 'apps', 'cli', 'bin', 'run.js');
/** A handful of the persona's questions: enough for training and validation tasks, few enough for CI's agent-CLI budget. */
const SESSIONS = 8;
/** What the researcher tells the agent after its first answer: the form they want, which no skill of theirs says yet. */
const INSTRUCTION = 'Please always give arXiv ids with their arXiv: prefix, inside <answer></answer> tags.';
const THANKS = 'thanks, perfect';
/** Each command's own wall-clock limit (past it its process group is killed); the test's limit is above them all. */
const TURN_TIMEOUT_MS = 120_000;
const NIGHT_TIMEOUT_MS = 600_000;
const COMMAND_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 900_000;

const persona = RESEARCHER_TASKS;

/** Every session transcript under Claude Code's projects folder, relative to it. */
function transcripts(claudeHome: string): string[] {
  const projects = path.join(claudeHome, 'projects');
  if (!existsSync(projects)) return [];
  return (readdirSync(projects, { recursive: true }) as string[]).filter((entry) => entry.endsWith('.jsonl')).sort();
}

interface TurnOutcome {
  sessionId: string;
  result: string;
}

function turnOutcome(run: ProcessResult, prompt: string): TurnOutcome {
  const outcome = jsonLines(run.stdout).find((event) => event.type === 'result');
  if (run.exitCode !== 0 || outcome?.is_error !== false)
    throw new Error(`claude -p "${prompt}" ended with ${run.exitCode}: ${run.stderr.slice(-2000)}\n${run.stdout.slice(-1500)}`);
  return { sessionId: String(outcome.session_id), result: String(outcome.result) };
}

interface NightResult {
  outcome: string;
  /** One skill here: the project's managed skill, which no session named. */
  skills: Array<{
    skill: string;
    documentPath: string;
    staging: { directory: string } | null;
    report: {
      validation: { before: { score: number }; after: { score: number } };
      rules: { added: string[] };
      runDirectory: string;
    };
  }>;
  usage: { byPurpose: Record<string, number> };
  mined: {
    tasksFile: string;
    sessions: number;
    minerCalls: { ledgerFile: string; calls: number; simulated: boolean };
    harvest: { sessions: number; sources: Array<{ source: string; filesFound: number; sessions: number; skipped: Record<string, number> }> };
  };
}

interface MinedTask {
  intent: string;
  referenceKind: string;
  judge?: { checks: Array<{ op: string; arg: unknown }> };
  sourceSessions: string[];
}

const ledgerOf = (file: string): LedgerLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerLine);

testWithAgentCli(
  'claude',
  "a live night learns from the researcher's real Claude Code sessions, stages, adopts, and refuses once the document is edited",
  async (cli) => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sleep-live-night-claude-'));
    const home = path.join(directory, 'home');
    const project = path.join(directory, 'papers');
    const claudeHome = path.join(home, '.claude');
    mkdirSync(home);
    mkdirSync(project);
    const model = await startLoopbackModel(researcherItems());
    const proxy = await startDenyProxy();
    // The researcher's own Claude Code: their HOME and its default config home, the project as working directory.
    const claude = (args: readonly string[]): Promise<ProcessResult> =>
      runProcess({
        command: cli.binary,
        args: ['-p', '--output-format', 'json', '--model', TARGET_MODEL, ...args],
        cwd: project,
        allowedEnvironmentVariables: [],
        extraEnvironmentVariables: {
          PATH: SMOKE_SEARCH_PATH,
          HOME: home,
          LANG: 'C.UTF-8',
          TERM: 'dumb',
          HTTP_PROXY: proxy.url,
          HTTPS_PROXY: proxy.url,
          NO_PROXY: '127.0.0.1,localhost',
          ...cli.offlineEnvironment,
          ANTHROPIC_BASE_URL: model.origin,
          ANTHROPIC_API_KEY: LOOPBACK_API_KEY,
          // Thinking off: the simulator takes enabled or disabled thinking, not adaptive.
          MAX_THINKING_TOKENS: '0',
        },
        timeoutMs: TURN_TIMEOUT_MS,
        provider: cli.id,
      });
    const skillopt = (args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<ProcessResult> =>
      runProcess({
        command: process.execPath,
        args: [cliEntry, 'sleep', ...args, '--json'],
        cwd: project,
        allowedEnvironmentVariables: ['PATH', 'TMPDIR', 'LANG'],
        // Sleep's state goes to <HOME>/.skillopt-sleep, inside the temporary folder.
        extraEnvironmentVariables: { HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: LOOPBACK_API_KEY },
        timeoutMs,
        provider: 'skillopt',
      });
    try {
      // 1. The researcher's sessions: the question, the form they want, thanks, in one session each.
      const asked = persona.slice(0, SESSIONS);
      const sessionIds: string[] = [];
      for (const task of asked) {
        const first = turnOutcome(await claude([task.intent]), task.intent);
        // The agent's habits: the id without its prefix, the answer outside tags.
        expect(first.result).not.toContain(task.reference);
        const corrected = turnOutcome(await claude(['--resume', first.sessionId, INSTRUCTION]), INSTRUCTION);
        expect(corrected).toEqual({ sessionId: first.sessionId, result: expect.stringContaining(`<answer>${task.reference}</answer>`) });
        turnOutcome(await claude(['--resume', first.sessionId, THANKS]), THANKS);
        sessionIds.push(first.sessionId);
      }
      expect(proxy.attempts).toEqual([]);
      const userTranscripts = transcripts(claudeHome);
      expect(userTranscripts.map((file) => path.basename(file, '.jsonl')).sort()).toEqual([...sessionIds].sort());

      // 2. One night for the project, from those transcripts to a staged proposal.
      const run = await skillopt(
        [
          'run',
          '--source',
          'claude-code',
          '--claude-home',
          claudeHome,
          '--lookback',
          '0',
          '--miner',
          'llm',
          '--set',
          'model.target_backend=claude-code',
          '--set',
          `model.target=${TARGET_MODEL}`,
          '--set',
          `backends.claude-code.path=${cli.binary}`,
          '--set',
          `backends.claude-code.base_url=${model.origin}`,
          '--set',
          'backends.claude-code.max_thinking_tokens=0',
          // The simulated optimizer draws its misdiagnoses (a harmful or a useless rule) from a hash of
          // its prompt, which holds the temporary project's random path: off, so what the night
          // learns does not hang on the folder's name.
          '--set',
          'backends.sim.harmful_rule_rate=0',
          '--set',
          'backends.sim.useless_rule_rate=0',
        ],
        NIGHT_TIMEOUT_MS,
      );
      if (run.exitCode !== 0) throw new Error(`sleep run exited ${run.exitCode}: ${run.stderr.slice(-3000)}\n${run.stdout.slice(-2000)}`);
      const night = jsonLines(run.stdout).find((line) => line.type === 'result') as unknown as NightResult;

      // The harvest read the researcher's sessions and nothing else: the night's own Claude Code
      // runs (isolated config homes) left no transcript where the researcher's are.
      expect(transcripts(claudeHome)).toEqual(userTranscripts);
      expect(night.mined.harvest.sessions).toBe(SESSIONS);
      const [claudeCode] = night.mined.harvest.sources;
      expect(claudeCode).toMatchObject({ source: 'claude-code', filesFound: SESSIONS, sessions: SESSIONS });
      expect(claudeCode?.skipped['own-session']).toBe(0);

      // The simulator, as the LLM miner, made one task of each session, checked on the answer the researcher accepted.
      const mined = (JSON.parse(readFileSync(night.mined.tasksFile, 'utf8')) as { tasks: MinedTask[] }).tasks;
      expect(night.mined.minerCalls).toMatchObject({ calls: SESSIONS, simulated: true });
      expect(mined.map((task) => task.intent).sort()).toEqual(asked.map((task) => task.intent).sort());
      for (const task of mined) {
        const wanted = asked.find((candidate) => candidate.intent === task.intent)?.reference;
        expect(task.referenceKind).toBe('rule');
        expect(task.judge?.checks).toContainEqual({ op: 'contains', arg: wanted });
        expect(task.sourceSessions.every((session) => sessionIds.includes(session))).toBe(true);
      }

      // The gate accepted rules that really raised the held-out score.
      expect(night.outcome).toBe('accepted');
      expect(night.skills.map((skill) => [skill.skill, skill.documentPath])).toEqual([
        ['skillopt-sleep-learned', path.join(project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md')],
      ]);
      const [{ report, staging }] = night.skills as [NightResult['skills'][number]];
      expect(report.rules.added.length).toBeGreaterThan(0);
      expect(report.validation.after.score).toBeGreaterThan(report.validation.before.score);

      // The ledgers: the miner's calls, and replays through Claude Code.
      const minerCalls = ledgerOf(night.mined.minerCalls.ledgerFile).filter((line) => line.line === 'call-started');
      expect(minerCalls.map((line) => line.purpose)).toEqual(Array.from({ length: SESSIONS }, () => 'mine'));
      const harnessCalls = ledgerOf(path.join(report.runDirectory, 'ledger.jsonl')).filter(
        (line) => line.line === 'call-started' && line.provider === 'claude-code',
      );
      expect(harnessCalls.length).toBeGreaterThan(0);
      expect(new Set(harnessCalls.map((line) => line.purpose))).toEqual(new Set(['replay']));
      expect(night.usage.byPurpose).toMatchObject({ mine: SESSIONS, replay: harnessCalls.length });

      // 3. Staged, not written: the live document is the project's managed skill, still absent.
      const live = path.join(project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');
      expect(staging).not.toBeNull();
      const staged = readFileSync(path.join(staging?.directory ?? '', 'proposed-1-SKILL.md'), 'utf8');
      for (const rule of report.rules.added) expect(staged).toContain(rule);
      expect(existsSync(live)).toBe(false);

      // 4. Adopted: the live file holds the rules. Undone: it is gone again.
      const adopt = await skillopt(['adopt']);
      expect(adopt.exitCode).toBe(0);
      expect(readFileSync(live, 'utf8')).toBe(staged);
      expect((await skillopt(['adopt', '--undo'])).exitCode).toBe(0);
      expect(existsSync(live)).toBe(false);

      // 5. The researcher writes the file themselves: adopting the night's proposal now is refused, naming the file, which keeps their text.
      const ownText = '# My paper notes\n\n- Cite with BibTeX keys.\n';
      mkdirSync(path.dirname(live), { recursive: true });
      writeFileSync(live, ownText);
      const refused = await skillopt(['adopt', '--staging', staging?.directory ?? '']);
      expect(refused.exitCode).toBe(2);
      const error = jsonLines(refused.stdout).find((line) => line.type === 'error')?.error as { code: string; message: string } | undefined;
      expect(error?.code).toBe('adoption-refused');
      expect(error?.message).toContain(live);
      expect(readFileSync(live, 'utf8')).toBe(ownText);
    } finally {
      await model.close();
      await proxy.close();
      rmSync(directory, { recursive: true, force: true });
    }
  },
  TEST_TIMEOUT_MS,
);
