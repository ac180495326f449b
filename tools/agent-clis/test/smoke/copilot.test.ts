import path from 'node:path';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import { answerTagOf, answerTextOf } from '../helpers/model-answer';
import { answeredTaskRequests, expectCleanExit, jsonLines, LOOPBACK_API_KEY, SMOKE_PROMPT, TARGET_MODEL, withSmokeSession } from '../helpers/smoke-session';

testWithAgentCli('copilot', 'Copilot CLI (BYOK, offline) answers a task from sim serve over Chat Completions, reaching no other host', async (cli) => {
  await withSmokeSession(cli, async (session) => {
    const result = await session.run(
      // The prompt on stdin. An allowlist naming no real tool sends no tools (an empty one would send all of them).
      ['--output-format', 'json', '--stream', 'off', '--available-tools', 'no-tool'],
      {
        COPILOT_PROVIDER_BASE_URL: session.model.url,
        COPILOT_PROVIDER_API_KEY: LOOPBACK_API_KEY,
        COPILOT_MODEL: TARGET_MODEL,
        COPILOT_HOME: path.join(session.home, '.copilot'),
        // The package the installer's `--version` unpacked; without it every run unpacks 235 MB again.
        XDG_CACHE_HOME: path.join(cli.cacheHome, '.cache'),
      },
      SMOKE_PROMPT,
    );
    expectCleanExit(result);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === 'result')).toMatchObject({ exitCode: 0 });
    const replies = events
      .filter((event) => event.type === 'assistant.message')
      .map((event) => String((event.data as { content?: unknown }).content ?? ''))
      .filter((content) => content !== '');

    const requests = answeredTaskRequests(session.model, '/v1/chat/completions');
    expect(requests.length).toBeGreaterThanOrEqual(1);
    const answer = answerTagOf(answerTextOf(requests[requests.length - 1]!));
    expect(answer).toMatch(/^<answer>.+<\/answer>$/);
    expect(answerTagOf(replies[replies.length - 1] ?? '')).toBe(answer);
    expect(session.proxy.attempts).toEqual([]);
  });
});
