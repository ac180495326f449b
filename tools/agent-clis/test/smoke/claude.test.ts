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
  'claude',
  'Claude Code reads task.md with its own tool and answers from sim serve over Anthropic Messages, reaching no other host',
  async (cli) => {
    await withSmokeSession(cli, async (session) => {
      const result = await session.run(
        // The prompt on stdin; a shell and a reader, asked for nothing (dontAsk: what needs approval is refused); no session file.
        ['-p', '--output-format', 'json', '--model', TARGET_MODEL, '--tools', 'Bash,Read', '--permission-mode', 'dontAsk', '--no-session-persistence'],
        {
          ANTHROPIC_BASE_URL: session.model.origin,
          ANTHROPIC_API_KEY: LOOPBACK_API_KEY,
          CLAUDE_CONFIG_DIR: path.join(session.home, '.claude'),
        },
        SMOKE_PROMPT,
      );
      expectCleanExit(result);
      const outcome = jsonLines(result.stdout).find((event) => event.type === 'result');
      expect(outcome).toMatchObject({ subtype: 'success', is_error: false });
      expectAnsweredThroughTools(session.model, '/v1/messages', String(outcome?.result));
      expect(session.proxy.attempts).toEqual([]);
    });
  },
);
