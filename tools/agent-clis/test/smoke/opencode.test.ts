import path from 'node:path';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import { answerTagOf, answerTextOf } from '../helpers/model-answer';
import { answeredTaskRequests, expectCleanExit, jsonLines, LOOPBACK_API_KEY, SMOKE_PROMPT, TARGET_MODEL, withSmokeSession } from '../helpers/smoke-session';

testWithAgentCli('opencode', 'OpenCode answers a task from sim serve over Chat Completions, reaching no other host', async (cli) => {
  await withSmokeSession(cli, async (session) => {
    const config = {
      provider: {
        sim: { npm: '@ai-sdk/openai-compatible', options: { baseURL: session.model.url, apiKey: LOOPBACK_API_KEY }, models: { [TARGET_MODEL]: {} } },
      },
      // An agent that may use no tool.
      agent: { smoke: { mode: 'primary', permission: { '*': 'deny' }, tools: { '*': false } } },
    };
    const result = await session.run(
      // The prompt on stdin; --title spares the title-generation request.
      ['run', '--format', 'json', '--model', `sim/${TARGET_MODEL}`, '--agent', 'smoke', '--title', 'smoke'],
      {
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        XDG_CACHE_HOME: path.join(session.home, '.cache'),
        XDG_CONFIG_HOME: path.join(session.home, '.config'),
        XDG_DATA_HOME: path.join(session.home, '.local', 'share'),
        XDG_STATE_HOME: path.join(session.home, '.local', 'state'),
      },
      SMOKE_PROMPT,
    );
    expectCleanExit(result);
    const texts = jsonLines(result.stdout)
      .filter((event) => event.type === 'text')
      .map((event) => String((event.part as { text?: unknown }).text ?? ''));

    const requests = answeredTaskRequests(session.model, '/v1/chat/completions');
    expect(requests.length).toBeGreaterThanOrEqual(1);
    const answer = answerTagOf(answerTextOf(requests[requests.length - 1]!));
    expect(answer).toMatch(/^<answer>.+<\/answer>$/);
    expect(answerTagOf(texts[texts.length - 1] ?? '')).toBe(answer);
    expect(session.proxy.attempts).toEqual([]);
  });
});
