import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createScriptedAgentRunner, type ScriptedAgentReply } from '@skillopt/env-kit/testing';
import {
  APPENDIX_END_MARKER,
  APPENDIX_START_MARKER,
  proposeCandidate,
  type CandidateProposalProgress,
  type CandidateProposalSettings,
  type SkillUpdateMode,
} from '../src/index';
import { scored } from './fixtures';
import { createScriptedOptimizerDouble, noAbort } from './scripted-optimizer-double';

const SKILL = `# Skill\n\n- Answer the question.\n\n${APPENDIX_START_MARKER}\n## Execution notes\n- Keep this note.\n${APPENDIX_END_MARKER}\n`;
const RESULTS = [scored('f1', 0, { reference: 'forty-two' }), scored('f2', 0), scored('s1', 1)];
const SUMMARY = [
  'I changed the skill:',
  '- `Give numbers as digits`: f1 and f2 spelt the number out.',
  '- `State the unit`: the reference answers carry units.',
  '- `Check the answer`: a general check.',
].join('\n');

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'agent-proposal-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A harness double that does what a harness does with the request's files, then edits skill.md as `edit` says. */
function editingAgent(edit: (skill: string) => string, finalText = SUMMARY) {
  return createScriptedAgentRunner({
    provider: 'agent-double',
    reply: (request: AgentRunRequest): ScriptedAgentReply => {
      for (const file of request.files ?? []) {
        mkdirSync(path.dirname(path.join(request.workspace, file.path)), { recursive: true });
        writeFileSync(path.join(request.workspace, file.path), file.content);
      }
      const skillFile = path.join(request.workspace, 'skill.md');
      writeFileSync(skillFile, edit(readFileSync(skillFile, 'utf8')));
      return {
        finalText,
        transcript: [{ type: 'result', result: finalText }],
        usage: { inputTokens: 900, outputTokens: 120 },
        exitStatus: { code: 0, signal: null, timedOut: false },
      };
    },
  });
}

const THREE_RULES = (skill: string) =>
  skill.replace('- Answer the question.', '- Answer the question.\n- Give numbers as digits.\n- State the unit.\n- Check the answer once.');

function settings(updateMode: SkillUpdateMode = 'patch'): CandidateProposalSettings {
  return {
    updateMode,
    learningRate: { schedule: 'constant', maxLearningRate: 2, minLearningRate: 0, totalSteps: 4 },
    learningRateLimitsEdits: true,
    minibatchSize: 8,
    failureOnly: false,
    mergeBatchSize: 2,
    concurrency: 2,
  };
}

async function propose(runner: ReturnType<typeof editingAgent>, options: { updateMode?: SkillUpdateMode; rankSelects?: number[] } = {}) {
  const model = createScriptedOptimizerDouble({
    reply: (call) => {
      if (call.purpose !== 'rank') throw new Error(`this test scripted no ${call.purpose} call`);
      return JSON.stringify({ reasoning: 'digits first', selected: options.rankSelects ?? [1, 3] });
    },
  });
  const progress: CandidateProposalProgress[] = [];
  const workspace = mkdtempSync(path.join(root, 'workspace-'));
  const proposal = await proposeCandidate({
    model,
    signal: noAbort(),
    skill: SKILL,
    results: RESULTS,
    settings: settings(options.updateMode),
    globalStep: 1,
    rejectedEdits: '- append "Answer in words." (validation 0.50 → 0.40)',
    agent: { runner, workspace, timeoutMs: 60_000 },
    onProgress: (event) => progress.push(event),
  });
  return { proposal, progress, model };
}

describe('proposeCandidate with an agent as the optimizer', () => {
  test('the agent edits a copy in a workspace of trajectory files; its changes become edits the learning rate bounds and the model ranks', async () => {
    const runner = editingAgent(THREE_RULES);
    const { proposal, progress, model } = await propose(runner);

    const [request] = runner.calls;
    expect(request).toEqual(expect.objectContaining({ purpose: 'optimize', workspaceAccess: 'write', timeoutMs: 60_000 }));
    expect(request?.files?.map((file) => file.path)).toEqual(['skill.md', 'trajectories/failed.md', 'trajectories/succeeded.md', 'rejected-edits.md']);
    const failedFile = String(request?.files?.find((file) => file.path === 'trajectories/failed.md')?.content);
    expect(failedFile).toContain('### Trajectory 1 (id=f1');
    expect(failedFile).toContain('Reference answer: forty-two');
    expect(request?.prompt).toContain('`trajectories/failed.md`: 2 trajectories in which the agent FAILED');
    expect(request?.prompt).toContain('at most 2 separate changes');
    expect(request?.prompt).toContain('`rejected-edits.md`');

    expect(model.calls.map((call) => call.purpose)).toEqual(['rank']);
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome !== 'candidate') return;
    expect(proposal.editCounts).toEqual({ proposed: 3, selected: 2 });
    expect(proposal.learningRate).toBe(2);
    expect(proposal.skill).toBe(SKILL.replace('- Answer the question.', '- Answer the question.\n- Give numbers as digits.\n- Check the answer once.'));
    expect(proposal.selectedEdits.map((edit) => edit.rationale)).toEqual(['a general check.', 'f1 and f2 spelt the number out.']);
    expect(proposal.selectedEdits.every((edit) => edit.support === 2 && edit.source === 'mixed')).toBe(true);
    expect(proposal.optimizerCalls).toBe(2);
    expect(proposal.optimizerUsage.inputTokens).toBeGreaterThanOrEqual(900);
    expect(proposal.artifacts.agentEdit?.revisedSkill).toBe(THREE_RULES(SKILL));
    expect(progress).toEqual([
      { type: 'edits-proposed', stage: 'optimize', count: 3 },
      { type: 'edits-proposed', stage: 'rank', count: 2 },
    ]);
  });

  test('a change inside a protected region is refused and reported; the other changes go on', async () => {
    const runner = editingAgent((skill) => THREE_RULES(skill).replace('- Keep this note.', '- My note instead.'));
    const { proposal, progress } = await propose(runner, { rankSelects: [1, 2] });
    expect(progress).toContainEqual({ type: 'edit-refused', refused: { reason: expect.stringContaining('protected region'), excerpt: '- Keep this note.' } });
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome !== 'candidate') return;
    expect(proposal.skill).toContain('- Keep this note.');
    expect(proposal.skill).not.toContain('My note instead');
    expect(proposal.artifacts.agentEdit?.refused).toHaveLength(1);
  });

  test('a full rewrite keeps every change the agent made, without a ranking', async () => {
    const { proposal, model } = await propose(editingAgent(THREE_RULES), { updateMode: 'full_rewrite_minibatch' });
    expect(model.calls).toEqual([]);
    expect(proposal.outcome).toBe('candidate');
    if (proposal.outcome === 'candidate') expect(proposal.skill).toBe(THREE_RULES(SKILL));
  });

  test('an agent that changed nothing, or only protected text, is a failed optimize stage', async () => {
    const unchanged = await propose(editingAgent((skill) => skill, 'Nothing to change.'));
    expect(unchanged.proposal).toEqual(
      expect.objectContaining({
        outcome: 'stage-failed',
        failure: expect.objectContaining({ stage: 'optimize', reason: 'the agent left skill.md unchanged' }),
      }),
    );
    expect(unchanged.proposal.optimizerCalls).toBe(1);

    const onlyProtected = await propose(editingAgent((skill) => skill.replace('- Keep this note.', '- Mine.')));
    expect(onlyProtected.proposal).toEqual(
      expect.objectContaining({ outcome: 'stage-failed', failure: expect.objectContaining({ reason: expect.stringContaining('was refused') }) }),
    );
  });

  test('a skill.md the agent left as a link or a hard link is a failed stage, and what it points at is never read', async () => {
    const secret = path.join(root, 'secret.txt');
    writeFileSync(secret, 'the host secret\n');
    for (const [leave, reason] of [
      [symlinkSync, "the agent's skill.md is not a regular file in the work folder: it is a symbolic link"],
      [linkSync, "the agent's skill.md is a hard link: the same file has another name, maybe outside the work folder"],
    ] as const) {
      const runner = editingAgent(THREE_RULES);
      const linking = createScriptedAgentRunner({
        provider: 'agent-double',
        reply: async (request: AgentRunRequest) => {
          const reply = await runner.run(request);
          rmSync(path.join(request.workspace, 'skill.md'));
          leave(secret, path.join(request.workspace, 'skill.md'));
          return reply;
        },
      });
      const { proposal } = await propose(linking as ReturnType<typeof editingAgent>);
      expect(proposal).toEqual(expect.objectContaining({ outcome: 'stage-failed', failure: expect.objectContaining({ stage: 'optimize', reason }) }));
      expect(JSON.stringify(proposal)).not.toContain('the host secret');
    }
  });

  test('a harness that timed out is a failed stage; an error that is not an infrastructure failure is thrown', async () => {
    const timedOut = createScriptedAgentRunner({
      reply: () => {
        throw new ProviderError({ provider: 'agent-double', code: 'provider-timeout', message: 'the harness ran past 60000 ms', retryable: true });
      },
    });
    const { proposal } = await propose(timedOut as ReturnType<typeof editingAgent>);
    expect(proposal).toEqual(
      expect.objectContaining({
        outcome: 'stage-failed',
        failure: expect.objectContaining({ stage: 'optimize', reason: expect.stringContaining('ran past 60000 ms') }),
      }),
    );

    const refusedKey = createScriptedAgentRunner({
      reply: () => {
        throw new ProviderError({ provider: 'agent-double', code: 'provider-auth', message: 'the key was refused', retryable: false });
      },
    });
    await expect(propose(refusedKey as ReturnType<typeof editingAgent>)).rejects.toThrow('the key was refused');
  });
});
