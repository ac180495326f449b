import { editSchema } from '@skillopt/contract';
import { detachProtectedRegions, reattachProtectedRegions, rewriteFromSuggestions, rewriteFromTrajectories, updateSkill } from '../src/index';
import { createScriptedOptimizerDouble, NEVER_CALLED_OPTIMIZER_DOUBLE, noAbort } from './scripted-optimizer-double';
import { errored, scored, trajectoryIds } from './fixtures';

const SLOW_BLOCK = '<!-- SLOW_UPDATE_START -->\n  Guidance with  odd   spacing \n\n\n- and blank lines\n<!-- SLOW_UPDATE_END -->';
const APPENDIX_BLOCK = '<!-- APPENDIX_START -->\n## Execution notes\n- Check units.\t\n<!-- APPENDIX_END -->';
const SKILL = `# Skill\n\n- old rule\n\n${SLOW_BLOCK}\n\n${APPENDIX_BLOCK}\n`;
const suggestion = editSchema.parse({ op: 'replace', target: '- old rule', content: '- new rule', support: 3, source: 'failure' });

describe('update modes', () => {
  test('rewrite_from_suggestions: blocks are taken out before the call and put back byte for byte', async () => {
    const model = createScriptedOptimizerDouble({
      reply: () => JSON.stringify({ reasoning: 'applied', changeSummary: ['replaced the old rule'], newSkill: '# Skill v2\n\n- new rule\n\n\n' }),
    });
    const result = await rewriteFromSuggestions({ model, signal: noAbort(), skill: SKILL, edits: [suggestion] });
    expect(model.calls[0]?.purpose).toBe('rewrite');
    expect(model.calls[0]?.prompt).not.toContain('SLOW_UPDATE_START');
    expect(model.calls[0]?.prompt).not.toContain('Check units');
    expect(model.calls[0]?.prompt).toContain('- old rule');
    expect(result.ok && result.value).toEqual({
      mode: 'rewrite_from_suggestions',
      skill: `# Skill v2\n\n- new rule\n\n${SLOW_BLOCK}\n\n${APPENDIX_BLOCK}\n`,
      changeSummary: ['replaced the old rule'],
      reasoning: 'applied',
    });
    if (result.ok) {
      expect(result.value.skill).toContain(SLOW_BLOCK);
      expect(result.value.skill).toContain(APPENDIX_BLOCK);
    }
  });

  test('a rewrite that writes marker lines is re-asked, then fails the stage', async () => {
    const model = createScriptedOptimizerDouble({
      reply: () => JSON.stringify({ newSkill: '# S\n<!-- SLOW_UPDATE_START -->\nmine\n<!-- SLOW_UPDATE_END -->\n' }),
    });
    const result = await rewriteFromSuggestions({ model, signal: noAbort(), skill: SKILL, edits: [suggestion] });
    expect(result).toMatchObject({ ok: false, stage: 'rewrite', prompt: 'rewrite-from-suggestions', attempts: 2 });
    expect(model.calls[1]?.lastMessage).toContain('marker');
  });

  test('no suggestions: no call, skill unchanged', async () => {
    const result = await rewriteFromSuggestions({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: SKILL, edits: [] });
    expect(result.ok && result.value.skill).toBe(SKILL);
  });

  test('full_rewrite_minibatch rewrites from scored trajectories and keeps the blocks', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => JSON.stringify({ changeSummary: [], newSkill: '# Rewritten' }) });
    const result = await rewriteFromTrajectories({ model, signal: noAbort(), skill: SKILL, results: [scored('f1', 0), errored('e1'), scored('s1', 1)] });
    expect(trajectoryIds(model.calls[0]?.prompt ?? '')).toEqual(['f1', 's1']);
    expect(result.ok && result.value.skill).toBe(`# Rewritten\n\n${SLOW_BLOCK}\n\n${APPENDIX_BLOCK}\n`);
  });

  test('updateSkill dispatches; patch mode uses the edit engine and makes no call', async () => {
    const result = await updateSkill({ mode: 'patch', skill: SKILL, edits: [suggestion] });
    expect(result.ok && result.value.skill).toBe(SKILL.replace('- old rule', '- new rule'));
    expect(result.ok && result.value.reports?.[0]?.status).toBe('applied');
  });

  test('detach and reattach round-trip a skill whose blocks stand at the end', () => {
    const { body, blocks } = detachProtectedRegions(SKILL);
    expect(body).toBe('# Skill\n\n- old rule\n\n');
    expect(blocks).toEqual([SLOW_BLOCK, APPENDIX_BLOCK]);
    expect(reattachProtectedRegions(body, blocks)).toBe(SKILL);
  });
});
