import { answerOnce, type SingleAnswerTask } from '../src/index';
import { createScriptedAgentRunner, createScriptedChatModel, createWorkDirectoryRolloutContextsForTests } from '../src/testing';

const task: SingleAnswerTask = {
  chat: { system: '# Skill\n\nBe brief.', user: '## Question\n\nWhy?', maxOutputTokens: 64 },
  agent: { text: '## Question\n\nWhy?', notes: 'Be brief.' },
};
const contexts = createWorkDirectoryRolloutContextsForTests();
afterEach(() => contexts.removeAll());

describe('answerOnce', () => {
  it('asks a chat model once with the system prompt and the user message', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>because</answer>'] });
    const answer = await answerOnce(task, contexts.contextFor({ skill: 'skill', target: { kind: 'chat', model }, itemId: 'q' }), 1000);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]).toMatchObject({
      messages: [
        { role: 'system', content: task.chat.system },
        { role: 'user', content: task.chat.user },
      ],
      maxOutputTokens: 64,
      purpose: 'rollout',
    });
    expect(answer).toMatchObject({ text: '<answer>because</answer>', details: { finishReason: 'stop', turns: 1 } });
  });

  it('runs an agent once on the task and answers with its final text', async () => {
    const runner = createScriptedAgentRunner({ reply: ['<answer>because</answer>'] });
    const answer = await answerOnce(task, contexts.contextFor({ skill: 'skill', target: { kind: 'agent', runner }, itemId: 'q' }), 1000);
    expect(runner.calls).toHaveLength(1);
    expect(runner.calls[0]?.files).toEqual([{ path: 'task.md', content: task.agent.text }]);
    expect(runner.calls[0]?.skill).toBe('skill');
    expect(answer).toMatchObject({ text: '<answer>because</answer>', details: { targetKind: 'agent', exitCode: 0 } });
  });
});
