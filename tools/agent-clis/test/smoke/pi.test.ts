import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import { answerTagOf, answerTextOf } from '../helpers/model-answer';
import { answeredTaskRequests, expectCleanExit, jsonLines, LOOPBACK_API_KEY, SMOKE_PROMPT, TARGET_MODEL, withSmokeSession } from '../helpers/smoke-session';

testWithAgentCli('pi', 'Pi answers a task from sim serve over Chat Completions, reaching no other host', async (cli) => {
  await withSmokeSession(cli, async (session) => {
    const agentDirectory = path.join(session.home, '.pi', 'agent');
    mkdirSync(agentDirectory, { recursive: true });
    // `apiKey` names the environment variable that holds the key.
    const models = {
      providers: {
        sim: {
          baseUrl: session.model.url,
          api: 'openai-completions',
          apiKey: 'SIM_API_KEY',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: TARGET_MODEL, maxTokens: 4096 }],
        },
      },
    };
    writeFileSync(path.join(agentDirectory, 'models.json'), JSON.stringify(models));
    const result = await session.run(
      ['-p', '--mode', 'json', '--model', `sim/${TARGET_MODEL}`, '--no-tools', '--no-session'],
      { PI_CODING_AGENT_DIR: agentDirectory, SIM_API_KEY: LOOPBACK_API_KEY },
      SMOKE_PROMPT,
    );
    expectCleanExit(result);
    const replies = jsonLines(result.stdout)
      .filter((event) => event.type === 'message_end' && (event.message as { role?: unknown }).role === 'assistant')
      .map((event) =>
        ((event.message as { content?: Array<{ type?: unknown; text?: unknown }> }).content ?? [])
          .map((block) => (block.type === 'text' ? String(block.text) : ''))
          .join(''),
      );

    const requests = answeredTaskRequests(session.model, '/v1/chat/completions');
    expect(requests.length).toBeGreaterThanOrEqual(1);
    const answer = answerTagOf(answerTextOf(requests[requests.length - 1]!));
    expect(answer).toMatch(/^<answer>.+<\/answer>$/);
    expect(answerTagOf(replies[replies.length - 1] ?? '')).toBe(answer);
    expect(session.proxy.attempts).toEqual([]);
  });
});
