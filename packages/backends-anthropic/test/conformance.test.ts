import { describeChatModelConformance, type ChatModelConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { hangingReply, startFaultInjectingServer, type ScriptedReply } from '@skillopt/backends-kit/testing';
import { createBackend, type AnthropicBackendConfigInput } from '../src/index';
import { errorReply, messageReply } from './anthropic-replies';

/** The real SDK against a loopback server that answers every request with `reply`. */
async function modelAnswering(context: ChatModelConformanceContext, reply: ScriptedReply, config: AnthropicBackendConfigInput = {}) {
  const server = await startFaultInjectingServer({ fallback: reply, defaultHeaders: { 'request-id': 'req_conformance' } });
  context.cleanUp(() => server.close());
  return createBackend(
    { base_url: server.url(), ...config },
    { environment: { ANTHROPIC_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() },
  ).createChatModel({ role: 'target' });
}

describeChatModelConformance({
  name: '@skillopt/backends-anthropic',
  createAnsweringModel: (context) => modelAnswering(context, { kind: 'json', body: messageReply({ text: 'Paris is the capital of France.' }) }),
  createStalledModel: (context) => modelAnswering(context, hangingReply(), { timeout_ms: context.timeoutMs, max_retries: 0 }),
  createRejectedModel: (context) => modelAnswering(context, errorReply(401, 'authentication_error', `invalid x-api-key: ${context.secret}`)),
  createModelWithoutReportedUsage: (context) => modelAnswering(context, { kind: 'json', body: { ...messageReply({ text: 'Paris.' }), usage: undefined } }),
});
