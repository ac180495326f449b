import { describeChatModelConformance } from '@skillopt/backends-kit/conformance';
import { createBackend } from '../src/index';

// The simulated model holds no credential, so the suite's check of a refused key does not apply;
// its answers carry usage estimated from text length, marked so.
describeChatModelConformance({
  name: '@skillopt/backends-sim',
  createAnsweringModel: () => createBackend({ noise: 0 }).createChatModel({ role: 'target' }),
  createStalledModel: (context) => createBackend({ latency_ms: 600_000, timeout_ms: context.timeoutMs }).createChatModel({ role: 'target' }),
  createModelWithoutReportedUsage: () => createBackend({ noise: 0 }).createChatModel({ role: 'optimizer' }),
});
