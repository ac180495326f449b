import path from 'node:path';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import {
  expectAnsweredThroughTools,
  expectCleanExit,
  jsonLines,
  LOOPBACK_API_KEY,
  SMOKE_PROMPT,
  TARGET_MODEL,
  withSmokeSession,
} from '../helpers/smoke-session';

testWithAgentCli(
  'copilot',
  'Copilot CLI (BYOK, offline) reads task.md with its own tool and answers from sim serve over Chat Completions, reaching no other host',
  async (cli) => {
    await withSmokeSession(cli, async (session) => {
      const result = await session.run(
        // The prompt on stdin; its shell and its file viewer only (read-only commands need no approval).
        ['--output-format', 'json', '--stream', 'off', '--available-tools', 'bash,view'],
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
      expectAnsweredThroughTools(session.model, '/v1/chat/completions', replies[replies.length - 1]);
      expect(session.proxy.attempts).toEqual([]);
    });
  },
);
