import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readSkillRules } from '@skillopt/backends-sim';
import { testWithAgentCli, type AgentCliId, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { madeCalls, trainDemo, withSimServe, type LedgerLine } from './helpers/demo-training';

// Issue 21: the real Claude Code and Codex CLIs as the optimizer AGENT (optimizer.mode: agent)
// against `skillopt sim serve`. Each step the CLI edits skill.md in a workspace of the step's
// trajectory files with its own tools; the run then keeps the edits the learning rate allows and
// gates them. Shown here: an accepted candidate made of the agent's own edits, a candidate with a
// harmful rule the gate rejected, and every agent run in the ledger as the optimizer's `optimize`.

const TRAINING_TIMEOUT_MS = 180_000;

interface Edit {
  op: string;
  target?: string;
  content?: string;
}

interface StepFiles {
  outcome: string;
  selected: Edit[];
  agentChanges: Edit[];
  transcript: string;
}

/** Each step's outcome, its selected edits, the edits read off the agent's copy, and its transcript. */
function readSteps(runDirectory: string): StepFiles[] {
  const steps = path.join(runDirectory, 'steps');
  return readdirSync(steps)
    .sort()
    .map((step) => {
      const read = (name: string) => readFileSync(path.join(steps, step, name), 'utf8');
      const record = JSON.parse(read('step_record.json')) as { outcome: string };
      const agentEdit = JSON.parse(read('agent_edit.json')) as { changes: Array<{ edit: Edit }> };
      const ranked = JSON.parse(read('ranked_edits.json')) as { edits: Edit[] };
      return {
        outcome: record.outcome,
        selected: ranked.edits,
        agentChanges: agentEdit.changes.map((change) => change.edit),
        transcript: JSON.stringify(JSON.parse(read('agent_transcript.json'))),
      };
    });
}

const sameEdit = (left: Edit, right: Edit) => left.op === right.op && left.target === right.target && left.content === right.content;

function expectAgentEditsGated(steps: readonly StepFiles[], ledger: readonly LedgerLine[], provider: string, wroteSkill: RegExp) {
  const accepted = steps.filter((step) => step.outcome === 'accepted');
  expect(accepted.length).toBeGreaterThanOrEqual(1);
  // An accepted candidate's edits are edits the agent wrote into its copy of the skill.
  for (const step of accepted) for (const edit of step.selected) expect(step.agentChanges.some((change) => sameEdit(change, edit))).toBe(true);
  // The gate rejected a candidate holding a rule that does harm.
  const harmfulRejected = steps.filter(
    (step) => step.outcome === 'rejected' && step.selected.some((edit) => readSkillRules(edit.content ?? '').harms.size > 0),
  );
  expect(harmfulRejected.length).toBeGreaterThanOrEqual(1);
  // Every step's agent wrote skill.md with its own tools; its transcript shows it.
  for (const step of steps) expect(step.transcript).toMatch(wroteSkill);
  const optimizeLines = ledger.filter((line) => line.line === 'call-started' && line.purpose === 'optimize');
  expect(optimizeLines).toHaveLength(steps.length);
  const agentRuns = madeCalls(ledger, 'optimizer').filter((call) => call.provider === provider);
  expect(agentRuns.length).toBeGreaterThanOrEqual(steps.length);
  for (const run of agentRuns) expect(run.usage?.inputTokens).toBeGreaterThan(0);
}

interface AgentOptimizerCase {
  backend: string;
  environment: Record<string, string>;
  baseUrlOf: (url: string) => string;
  /** What the CLI's transcript shows when the agent wrote skill.md with its own tool. */
  wroteSkill: RegExp;
}

function agentOptimizerTest(id: AgentCliId, { backend, environment, baseUrlOf, wroteSkill }: AgentOptimizerCase) {
  const config = `configs/features/${backend}-agent-optimizer.yaml`;
  testWithAgentCli(
    id,
    `trains with ${backend} as the optimizer agent: its own edits of skill.md accepted by the gate, a harmful one rejected, each run in the ledger`,
    async (cli: LocatedAgentCli) => {
      await withSimServe(async (url) => {
        let steps: StepFiles[] = [];
        const { summary, ledger } = await trainDemo({
          config,
          settings: [`backends.${backend}.path=${cli.binary}`, `backends.${backend}.base_url=${baseUrlOf(url)}`],
          environment,
          timeoutMs: TRAINING_TIMEOUT_MS,
          inspectRun: (runDirectory) => {
            steps = readSteps(runDirectory);
          },
        });
        expect(summary.acceptedCandidates).toBeGreaterThanOrEqual(1);
        expect(summary.rejectedCandidates).toBeGreaterThanOrEqual(1);
        expect(summary.best.score).toBeGreaterThan(summary.baseline.score);
        expectAgentEditsGated(steps, ledger, backend, wroteSkill);
      }, config);
    },
    TRAINING_TIMEOUT_MS + 60_000,
  );
}

describe('an agent CLI as the optimizer (configs/features/*-agent-optimizer.yaml) against sim serve', () => {
  agentOptimizerTest('claude', {
    backend: 'claude-code',
    environment: { ANTHROPIC_API_KEY: 'sim' },
    baseUrlOf: (url) => url.replace(/\/v1\/?$/, ''),
    // Claude Code's Write tool, on the workspace's skill.md.
    wroteSkill: /"name":"Write","input":\{"file_path":"\/[^"]*\/skill\.md"/,
  });
  agentOptimizerTest('codex', {
    backend: 'codex',
    environment: { CODEX_API_KEY: 'sim' },
    baseUrlOf: (url) => url,
    // A command of Codex's shell, under its workspace-write sandbox.
    wroteSkill: /"command_execution","command":"[^\n]*cat > skill\.md <</,
  });
});
