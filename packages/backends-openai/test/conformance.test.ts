import { describeChatModelConformance, type ChatModelConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { hangingReply, startFaultInjectingServer, type ScriptedReply } from '@skillopt/backends-kit/testing';
import { createBackend, type OpenAiBackendConfigInput } from '../src/index';
import { completion, errorBody } from './openai-replies';

/** The real SDK against a loopback server that answers every request with `reply`. */
async function modelAnswering(context: ChatModelConformanceContext, reply: ScriptedReply, config: OpenAiBackendConfigInput = {}) {
  const server = await startFaultInjectingServer({ fallback: reply });
  context.cleanUp(() => server.close());
  return createBackend(
    { base_url: server.url('/v1'), ...config },
    { environment: { OPENAI_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() },
  ).createChatModel({ role: 'target', modelId: 'gpt-4.1-mini' });
}

describeChatModelConformance({
  name: '@skillopt/backends-openai',
  createAnsweringModel: (context) => modelAnswering(context, { kind: 'json', body: completion('Paris is the capital of France.') }),
  createStalledModel: (context) => modelAnswering(context, hangingReply(), { timeout_seconds: context.timeoutMs / 1000, max_attempts: 1 }),
  createRejectedModel: (context) =>
    modelAnswering(context, {
      kind: 'json',
      status: 401,
      body: errorBody(`Incorrect API key provided: ${context.secret}.`, 'invalid_request_error', 'invalid_api_key'),
    }),
  createModelWithoutReportedUsage: (context) => modelAnswering(context, { kind: 'json', body: completion('Paris.', { usage: null }) }),
});
