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
  'opencode',
  'OpenCode reads task.md with its own tool and answers from sim serve over Chat Completions, reaching no other host',
  async (cli) => {
    await withSmokeSession(cli, async (session) => {
      const config = {
        provider: {
          sim: { npm: '@ai-sdk/openai-compatible', options: { baseURL: session.model.url, apiKey: LOOPBACK_API_KEY }, models: { [TARGET_MODEL]: {} } },
        },
        // An agent that may read files and do nothing else.
        agent: { smoke: { mode: 'primary', permission: { '*': 'deny', read: 'allow' } } },
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
      expectAnsweredThroughTools(session.model, '/v1/chat/completions', texts[texts.length - 1]);
      expect(session.proxy.attempts).toEqual([]);
    });
  },
);
