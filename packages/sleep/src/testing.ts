/**
 * `@skillopt/sleep/testing`: what a plugin package's tests need to install it for real into a
 * temporary home, check what it left there, and probe its MCP bin. Nothing here is used at run time.
 */
export { folderSnapshot } from './testing/folder-snapshot.js';
export { probeSleepMcpBin, type SleepMcpBinProbe } from './testing/mcp-bin-client.js';
export { type PluginTestHome, createPluginTestHome } from './testing/plugin-test-home.js';
