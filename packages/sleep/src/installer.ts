/**
 * `@skillopt/sleep/installer`: the install mechanics every `@skillopt/plugin-<id>` shares, written
 * once. A plugin package holds its files and a `skillopt-plugin.json` saying where they go and
 * which settings it adds; this places them, merges the settings without clobbering the user's,
 * keeps a receipt, and takes out exactly that again.
 */
export {
  type BackendPackage,
  backendPackageName,
  ensureBackendPackage,
  type NpmResult,
  type NpmRunner,
  removeBackendPackage,
} from './installer/backend-package.js';
export { type InstallVariables, renderTemplate } from './installer/install-variables.js';
export { type InstallReceipt, RECEIPT_FORMAT, readReceipt, receiptFile } from './installer/install-receipt.js';
export {
  installPlugin,
  type PluginInstallRequest,
  type PluginInstallResult,
  type PluginUninstallResult,
  uninstallPlugin,
} from './installer/install-plugin.js';
export {
  type PluginAction,
  type PluginActionOptions,
  type PluginActionOutcome,
  type PluginCommandIo,
  performPluginAction,
  runPluginBin,
  runPluginCommandLine,
  sleepBinOf,
} from './installer/plugin-command-line.js';
export { PLUGIN_MANIFEST_FORMAT, type PluginManifest, type PluginScope, readPluginManifest } from './installer/plugin-manifest.js';
