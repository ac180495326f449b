import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testWithAgentCli, type AgentCliId, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { madeCalls, trainDemo, withSimServe } from './helpers/demo-training';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';

/**
 * Issue #24's "done when": a reduced SpreadsheetBench training (a handful of the real tasks, one
 * epoch) with Claude Code and with Codex as the target agent finishes against `sim serve`, each
 * rollout the real CLI inside bubblewrap writing and running its script through its own tools,
 * the workbooks it saved scored by the evaluator, and the best skill beats the initial one.
 */
// Cell-level tasks with small workbooks and three cases each (those of the env's own training test).
const SPLITS = { train: ['39180', '39490', '39604', '17251'], val: ['10452', '38985', '50811'], test: ['48799', '30468', '32255'] };
const TRAINING_TIMEOUT_MS = 300_000;

const CONFIGS: Record<'claude' | 'codex', { file: string; backend: string; key: Record<string, string>; baseUrl: (url: string) => string }> = {
  claude: {
    file: 'configs/features/claude-code-spreadsheetbench.yaml',
    backend: 'claude-code',
    key: { ANTHROPIC_API_KEY: 'sim' },
    baseUrl: (url) => url.replace(/\/v1\/?$/, ''),
  },
  codex: { file: 'configs/features/codex-spreadsheetbench.yaml', backend: 'codex', key: { CODEX_API_KEY: 'sim' }, baseUrl: (url) => url },
};

/** A split folder of the real tasks, in a temp folder (the tasks' files stay in the repository's test data). */
function writeRealSplit(directory: string): string {
  const rows = JSON.parse(readFileSync(path.join(SPREADSHEETBENCH_TASKS, 'dataset_50.json'), 'utf8')) as Array<{ id: unknown }>;
  const splitDirectory = path.join(directory, 'split');
  for (const [split, ids] of Object.entries(SPLITS)) {
    mkdirSync(path.join(splitDirectory, split), { recursive: true });
    writeFileSync(path.join(splitDirectory, split, 'items.json'), JSON.stringify(ids.map((id) => rows.find((row) => String(row.id) === id))));
  }
  return splitDirectory;
}

interface RolloutRecord {
  details?: { targetKind?: string; mode?: string; scripts?: string[]; sandbox?: string; casesPassed?: number };
}

/** The agent rollouts' results, from the run's rollout cache (`rollouts/<skillHash>.jsonl`). */
function rolloutRecords(runDirectory: string): RolloutRecord[] {
  const folder = path.join(runDirectory, 'rollouts');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(path.join(folder, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .flatMap((line) => findResults(JSON.parse(line) as unknown));
}

/** The records whose `details` say an agent made them, wherever a cache line nests its result. */
function findResults(value: unknown): RolloutRecord[] {
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const details = record.details as RolloutRecord['details'] | undefined;
  if (details?.targetKind === 'agent') return [record as RolloutRecord];
  return Object.values(record).flatMap(findResults);
}

function trainWith(id: 'claude' | 'codex'): (cli: LocatedAgentCli) => Promise<void> {
  const setup = CONFIGS[id];
  return async (cli) => {
    const directory = mkdtempSync(path.join(tmpdir(), `spreadsheetbench-${id}-`));
    try {
      const data = [`env.split_dir=${writeRealSplit(directory)}`, `env.data_root=${SPREADSHEETBENCH_TASKS}`];
      await withSimServe(
        async (url) => {
          let records: RolloutRecord[] = [];
          const { summary, ledger } = await trainDemo({
            config: setup.file,
            settings: [...data, `backends.${setup.backend}.path=${cli.binary}`, `backends.${setup.backend}.base_url=${setup.baseUrl(url)}`],
            environment: setup.key,
            timeoutMs: TRAINING_TIMEOUT_MS,
            inspectRun: (run) => {
              records = rolloutRecords(run);
            },
          });
          expect(summary.test.best.hard).toBeGreaterThan(summary.test.initial.hard);
          expect(summary.test.initial.excluded).toBe(0);
          expect(summary.test.best.excluded).toBe(0);
          const rollouts = madeCalls(ledger, 'target');
          expect(rollouts.length).toBeGreaterThanOrEqual(10);
          for (const rollout of rollouts) expect(rollout.provider).toBe(setup.backend);
          // Each rollout was the agent's: it left its script, and the evaluator scored what it saved, in the sandbox.
          expect(records.length).toBeGreaterThan(0);
          for (const record of records) expect(record.details).toMatchObject({ mode: 'agent', scripts: ['solve.py'], sandbox: 'bubblewrap' });
          expect(records.some((record) => (record.details?.casesPassed ?? 0) > 0)).toBe(true);
        },
        setup.file,
        data,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
}

describe('SpreadsheetBench with an agent CLI as the target, against sim serve', () => {
  for (const id of ['claude', 'codex'] as const satisfies readonly AgentCliId[])
    testWithAgentCli(
      id,
      `trains with ${CONFIGS[id].backend} as the target agent: the best skill beats the initial one on test`,
      trainWith(id),
      TRAINING_TIMEOUT_MS + 60_000,
    );
});
