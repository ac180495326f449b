import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentRunRequest, RunEvent } from '@skillopt/contract';
import { createScriptedAgentRunner } from '@skillopt/env-kit/testing';
import { APPENDIX_END_MARKER, APPENDIX_START_MARKER } from '@skillopt/optimizer';
import { readLedgerFile, train } from '../../src/index';
import {
  GOOD_RULE,
  HARMFUL_RULE,
  createArithmeticEnvironment,
  createScriptedOptimizer,
  createScriptedTarget,
  trainingConfig,
} from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

const runDirectory = temporaryRunDirectories('skillopt-agent-optimizer-');
const INITIAL_SKILL = `# Arithmetic\n\n- Add the two numbers.\n\n${APPENDIX_START_MARKER}\n- A note kept by the appendix.\n${APPENDIX_END_MARKER}\n`;

/**
 * A harness double acting as the optimizer: it writes its workspace's files as a harness does and
 * edits skill.md as an agent would. Its first edit adds the harmful rule (and rewrites the protected
 * appendix, which must be refused); once that rule is among the rejected edits, the good one.
 */
function createEditingAgent() {
  return createScriptedAgentRunner({
    provider: 'agent-double',
    modelId: 'editing-agent',
    reply: (request: AgentRunRequest) => {
      for (const file of request.files ?? []) {
        mkdirSync(path.dirname(path.join(request.workspace, file.path)), { recursive: true });
        writeFileSync(path.join(request.workspace, file.path), file.content);
      }
      const skillFile = path.join(request.workspace, 'skill.md');
      const skill = readFileSync(skillFile, 'utf8');
      const rejected = request.files?.find((file) => file.path === 'rejected-edits.md')?.content ?? '';
      const rule = String(rejected).includes(HARMFUL_RULE.slice(2)) ? GOOD_RULE : HARMFUL_RULE;
      if (skill.includes(rule)) return 'Nothing left to change.';
      writeFileSync(
        skillFile,
        skill.replace('- Add the two numbers.', `- Add the two numbers.\n${rule}`).replace('- A note kept by the appendix.', '- My own note.'),
      );
      return `Changed the skill:\n- \`${rule.slice(2, 30)}\`: the failed answers needed it.`;
    },
  });
}

describe('train with an agent as the optimizer (optimizer.mode: agent)', () => {
  it('gates the agent’s edits like the chat optimizer’s: the harmful one rejected, the good one accepted, every run in the ledger as optimize', async () => {
    const directory = runDirectory();
    const agent = createEditingAgent();
    const events: RunEvent[] = [];
    const summary = await train({
      config: trainingConfig({ optimizer: { mode: 'agent', learning_rate: 2, min_learning_rate: 1, use_slow_update: false, use_meta_skill: false } }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      optimizerAgent: agent,
      initialSkill: INITIAL_SKILL,
      runDirectory: directory,
      onEvent: (event) => events.push(event),
    });

    expect(summary.rejectedCandidates).toBeGreaterThanOrEqual(1);
    expect(summary.acceptedCandidates).toBeGreaterThanOrEqual(1);
    const best = readFileSync(path.join(directory, 'best_skill.md'), 'utf8');
    expect(best).toContain(GOOD_RULE);
    expect(best).not.toContain(HARMFUL_RULE);
    expect(best).toContain('- A note kept by the appendix.');

    // The protected appendix's rewrite was refused, each time, and said so.
    const refused = events.filter((event) => event.type === 'edit-refused');
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused[0]).toEqual(expect.objectContaining({ stage: 'optimize', excerpt: '- A note kept by the appendix.' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'edits-proposed', stage: 'optimize', count: 1 }));

    const { entries } = await readLedgerFile(path.join(directory, 'ledger.jsonl'));
    const agentRuns = entries.filter((entry) => entry.purpose === 'optimize');
    expect(agentRuns).toHaveLength(agent.calls.length);
    expect(agentRuns.every((entry) => entry.role === 'optimizer' && entry.provider === 'agent-double')).toBe(true);
    // No reflect or merge call: the agent took their place.
    expect(entries.some((entry) => entry.purpose === 'reflect' || entry.purpose === 'merge')).toBe(false);

    const step = path.join(directory, 'steps', 'step_0001');
    const agentEdit = JSON.parse(readFileSync(path.join(step, 'agent_edit.json'), 'utf8')) as { finalText: string; changes: unknown[]; refused: unknown[] };
    expect(agentEdit.changes).toHaveLength(1);
    expect(agentEdit.refused).toHaveLength(1);
    expect(readFileSync(path.join(step, 'agent_skill.md'), 'utf8')).toContain(HARMFUL_RULE);
    expect(JSON.parse(readFileSync(path.join(step, 'agent_transcript.json'), 'utf8'))).toEqual({ events: [expect.any(Object)], omittedEvents: 0 });
    // Its workspace is gone once the step ended.
    expect(() => readFileSync(path.join(directory, 'work', 'optimizer', 'step_0001', 'skill.md'))).toThrow();
  });

  it('refuses agent mode without an agent runner, naming what to set', async () => {
    await expect(
      train({
        config: trainingConfig({ optimizer: { mode: 'agent' } }),
        environment: createArithmeticEnvironment(),
        target: { kind: 'chat', model: createScriptedTarget().model },
        optimizer: createScriptedOptimizer().model,
        runDirectory: runDirectory(),
      }),
    ).rejects.toThrow(/optimizer\.mode is agent, but no agent runner was given/);
  });
});
