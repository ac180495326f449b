import path from 'node:path';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import { answerTagOf, answerTextOf } from '../helpers/model-answer';
import { answeredTaskRequests, expectCleanExit, jsonLines, LOOPBACK_API_KEY, SMOKE_PROMPT, TARGET_MODEL, withSmokeSession } from '../helpers/smoke-session';

testWithAgentCli('claude', 'Claude Code answers a task from sim serve over Anthropic Messages, reaching no other host', async (cli) => {
  await withSmokeSession(cli, async (session) => {
    const result = await session.run(
      // The prompt on stdin; no tools, no session file; thinking off, since the simulator takes only enabled or disabled thinking.
      ['-p', '--output-format', 'json', '--model', TARGET_MODEL, '--tools', '', '--no-session-persistence'],
      {
        ANTHROPIC_BASE_URL: session.model.origin,
        ANTHROPIC_API_KEY: LOOPBACK_API_KEY,
        CLAUDE_CONFIG_DIR: path.join(session.home, '.claude'),
        MAX_THINKING_TOKENS: '0',
      },
      SMOKE_PROMPT,
    );
    expectCleanExit(result);
    const outcome = jsonLines(result.stdout).find((event) => event.type === 'result');
    expect(outcome).toMatchObject({ subtype: 'success', is_error: false });

    const requests = answeredTaskRequests(session.model, '/v1/messages');
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests.map((request) => (request.body as { model?: unknown }).model)).toEqual(requests.map(() => TARGET_MODEL));
    const answer = answerTagOf(answerTextOf(requests[requests.length - 1]!));
    expect(answer).toMatch(/^<answer>.+<\/answer>$/);
    expect(answerTagOf(String(outcome?.result))).toBe(answer);
    expect(session.proxy.attempts).toEqual([]);
  });
});
