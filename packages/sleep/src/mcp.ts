/**
 * `@skillopt/sleep/mcp`: SkillOpt-Sleep's MCP server, over stdio, for the agents that take tools
 * from one (GitHub Copilot, Devin). A plugin's bin is
 * `import { runSleepMcpServer } from '@skillopt/sleep/mcp'; await runSleepMcpServer({ runtime: 'copilot' });`.
 */
export {
  createSleepMcpServer,
  runSleepMcpServer,
  type SleepCallStatus,
  type SleepMcpServer,
  type SleepMcpServerOptions,
  type SleepMcpTransport,
} from './mcp/sleep-mcp-server.js';
export {
  PUBLISHED_BACKENDS,
  RUNTIME_SOURCES,
  SLEEP_MCP_RUNTIMES,
  type SleepMcpRuntime,
  type SleepTool,
  type SleepToolArgument,
  sleepToolName,
  sleepTools,
} from './mcp/sleep-tools.js';
