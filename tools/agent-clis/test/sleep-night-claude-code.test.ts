import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '@skillopt/runtime-kit';
import { testWithAgentCli } from './helpers/agent-cli-cache';
import type { LedgerLine } from './helpers/demo-training';
import { startLoopbackModel } from './helpers/loopback-model';
import { researcherItems } from './helpers/researcher-persona';
import { LOOPBACK_API_KEY } from './helpers/smoke-session';

/**
 * Issue #27 item 4: a night whose target is the real Claude Code CLI (backends-claude-code) against
 * the simulator on loopback. It learns the researcher persona's rules through the harness, and the
 * user's own ~/.claude (settings, memory, sessions) is byte for byte what it was: the harness ran
 * with a config home of its own.
 */
const repository = path.resolve(__dirname, '..', '..', '..');
const cliEntry = path.join(repository, 'apps', 'cli', 'bin', 'run.js');
const NIGHT_TIMEOUT_MS = 600_000;

/** Every file under `folder` with a hash of its bytes and its mode: what "unchanged" is checked against. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const entryPath = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(entryPath);
      else {
        const absolute = path.join(folder, entryPath);
        files[entryPath] = `${statSync(absolute).mode.toString(8)} ${createHash('sha256').update(readFileSync(absolute)).digest('hex')}`;
      }
    }
  };
  walk('');
  return files;
}

/** A developer's ~/.claude as Claude Code leaves it: settings, a memory file, one project's session. */
function seedClaudeHome(home: string): void {
  const claude = path.join(home, '.claude');
  mkdirSync(path.join(claude, 'projects', '-work-papers'), { recursive: true });
  writeFileSync(path.join(claude, 'settings.json'), `${JSON.stringify({ model: 'opus', permissions: { allow: ['Bash(git status)'] } }, null, 2)}\n`);
  writeFileSync(path.join(claude, 'CLAUDE.md'), '# My own memory\n\n- Reply in French.\n');
  writeFileSync(path.join(claude, 'projects', '-work-papers', 'session-1.jsonl'), '{"type":"user","message":{"role":"user","content":"hello"}}\n');
  writeFileSync(path.join(home, '.claude.json'), '{"numStartups": 3}\n');
}

interface NightReport {
  outcome: string;
  validation: { before: { score: number }; after: { score: number } };
  tasks: { excluded: unknown[] };
  rules: { added: string[] };
  runDirectory: string;
}

testWithAgentCli(
  'claude',
  "a night through Claude Code learns the persona's rules and leaves the user's ~/.claude unchanged",
  async (cli) => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sleep-night-claude-'));
    const home = path.join(directory, 'home');
    seedClaudeHome(home);
    const before = snapshot(path.join(home, '.claude'));
    const homeJson = readFileSync(path.join(home, '.claude.json'), 'utf8');
    const model = await startLoopbackModel(researcherItems());
    try {
      const out = path.join(directory, 'night');
      const result = await runProcess({
        command: process.execPath,
        args: [
          cliEntry,
          'sleep',
          'dry-run',
          '--persona',
          'researcher',
          '--out',
          out,
          '--set',
          'model.target_backend=claude-code',
          '--set',
          'model.target=sim-target',
          '--set',
          `backends.claude-code.path=${cli.binary}`,
          '--set',
          `backends.claude-code.base_url=${model.origin}`,
          // Thinking off: the simulator takes enabled or disabled thinking, not adaptive.
          '--set',
          'backends.claude-code.max_thinking_tokens=0',
        ],
        cwd: repository,
        allowedEnvironmentVariables: ['PATH', 'TMPDIR', 'LANG'],
        extraEnvironmentVariables: { HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: LOOPBACK_API_KEY },
        timeoutMs: NIGHT_TIMEOUT_MS,
        provider: 'skillopt',
      });
      if (result.exitCode !== 0) throw new Error(`sleep dry-run exited ${result.exitCode}: ${result.stderr.slice(-3000)}\n${result.stdout.slice(-2000)}`);
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as NightReport;
      expect(report.outcome).toBe('accepted');
      expect(report.tasks.excluded).toEqual([]);
      expect(report.validation.after.score).toBeGreaterThan(report.validation.before.score);
      expect(report.rules.added.length).toBeGreaterThan(0);

      // The replays really went through the harness, entered in the ledger as replays.
      const ledger = readFileSync(path.join(report.runDirectory, 'ledger.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LedgerLine);
      const replays = ledger.filter((line) => line.line === 'call-started' && line.provider === 'claude-code');
      expect(replays.length).toBeGreaterThan(0);
      expect(new Set(replays.map((line) => line.purpose))).toEqual(new Set(['replay']));
      // The requests reached the model with the document Claude Code read as its CLAUDE.md.
      const requests = model.exchanges.map((exchange) => JSON.stringify(exchange.body ?? null));
      expect(requests.some((body) => body.includes('Persona assistant'))).toBe(true);
      // …and never with the user's own memory: Claude Code did not read their ~/.claude.
      expect(requests.some((body) => body.includes('Reply in French'))).toBe(false);

      expect(snapshot(path.join(home, '.claude'))).toEqual(before);
      expect(readFileSync(path.join(home, '.claude.json'), 'utf8')).toBe(homeJson);
    } finally {
      await model.close();
      rmSync(directory, { recursive: true, force: true });
    }
  },
  NIGHT_TIMEOUT_MS + 30_000,
);
