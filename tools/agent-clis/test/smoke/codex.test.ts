import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { codexSearchPath } from '@skillopt/backends-codex';
import { testWithAgentCli } from '../helpers/agent-cli-cache';
import {
  expectAnsweredThroughTools,
  expectCleanExit,
  jsonLines,
  LOOPBACK_API_KEY,
  SMOKE_PROMPT,
  SMOKE_SEARCH_PATH,
  TARGET_MODEL,
  withSmokeSession,
} from '../helpers/smoke-session';

testWithAgentCli('codex', 'Codex reads task.md with its own tool and answers from sim serve over the Responses API, reaching no other host', async (cli) => {
  await withSmokeSession(cli, async (session) => {
    const codexHome = path.join(session.home, '.codex');
    mkdirSync(codexHome);
    // A provider of our own: Codex ignores OPENAI_BASE_URL, and speaks only the Responses wire.
    const provider = `{name="sim",base_url="${session.model.url}",env_key="SIM_API_KEY",wire_api="responses"}`;
    const result = await session.run(
      [
        'exec',
        '--json',
        '--ephemeral',
        '--skip-git-repo-check',
        '--sandbox',
        'read-only',
        '-c',
        'model_provider="sim"',
        '-c',
        `model_providers.sim=${provider}`,
        '-m',
        TARGET_MODEL,
        ...cli.offlineArguments,
        // The prompt on stdin.
        '-',
      ],
      // With a system bubblewrap too old for Codex, its own goes first, as @skillopt/backends-codex arranges.
      { CODEX_HOME: codexHome, SIM_API_KEY: LOOPBACK_API_KEY, PATH: codexSearchPath(cli.binary, SMOKE_SEARCH_PATH) ?? SMOKE_SEARCH_PATH },
      SMOKE_PROMPT,
    );
    expectCleanExit(result);
    const events = jsonLines(result.stdout);
    expect(events.some((event) => event.type === 'turn.completed')).toBe(true);
    const messages = events
      .filter((event) => event.type === 'item.completed' && (event.item as { type?: unknown }).type === 'agent_message')
      .map((event) => String((event.item as { text?: unknown }).text ?? ''));
    expectAnsweredThroughTools(session.model, '/v1/responses', messages[messages.length - 1]);
    expect(session.proxy.attempts).toEqual([]);
  });
});
