import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCliDescription } from './fast-path/cli-description.js';
import { formatRootHelp } from './fast-path/root-help.js';
import { headerStyleOf, helpWidthOf, type TerminalFacts } from './fast-path/terminal.js';
import { userAgentOf } from './fast-path/user-agent.js';

export interface FastPathRequest {
  /** The arguments after the script, as oclif would read them. */
  argv: readonly string[];
  /** The CLI's package directory (package.json, oclif.manifest.json). */
  cliRoot: string;
  environment: NodeJS.ProcessEnv;
  terminal: TerminalFacts;
  write(text: string): void;
}

/**
 * Answers `skillopt --version`, `skillopt --help` (or `-h`) and a bare `skillopt` without loading @oclif/core
 * (about 150 ms of a 230 ms start, docs/benchmarks.md): the text oclif would print, rendered from
 * package.json and oclif.manifest.json. Returns false, having printed nothing, for anything else
 * and whenever oclif might print something different (debugging on, a user theme, a colour setting
 * it decides by rules not reproduced here, a manifest missing or out of date); then oclif answers.
 * SKILLOPT_NO_FAST_PATH=1 turns it off.
 */
export function answerWithoutOclif(request: FastPathRequest): boolean {
  const { argv, environment } = request;
  const [only, ...more] = argv;
  // The cheap test first: most commands are neither, and need not read the manifest.
  const mayAsk = argv.length === 0 || (more.length === 0 && only?.startsWith('-'));
  if (!mayAsk || environment.SKILLOPT_NO_FAST_PATH || environment.DEBUG || environment.SKILLOPT_DEBUG) return false;
  const cli = readCliDescription(request.cliRoot);
  if (cli === undefined) return false;
  const asks = only === undefined || cli.helpFlags.includes(only) ? 'help' : only === '--version' ? 'version' : undefined;
  if (asks === undefined) return false;
  const userAgent = userAgentOf(cli.name, cli.version);
  if (userAgent === undefined) return false;
  if (asks === 'version') {
    request.write(`${userAgent}\n`);
    return true;
  }
  const headerStyle = headerStyleOf(environment, request.terminal);
  if (headerStyle === undefined || hasUserTheme(cli.dirname, environment, request.terminal.platform)) return false;
  request.write(formatRootHelp(cli, userAgent, { width: helpWidthOf(environment, request.terminal), headerStyle }));
  return true;
}

/** oclif colours help by <config dir>/theme.json when it exists (unless SKILLOPT_DISABLE_THEME); the fast path has no themes. */
function hasUserTheme(dirname: string, environment: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (environment.SKILLOPT_DISABLE_THEME === 'true' || environment.SKILLOPT_DISABLE_THEME === '1') return false;
  const windows = platform === 'win32';
  const windowsHome = (environment.HOMEDRIVE && environment.HOMEPATH && path.join(environment.HOMEDRIVE, environment.HOMEPATH)) || environment.USERPROFILE;
  const home = environment.HOME || (windows && windowsHome) || os.homedir() || os.tmpdir();
  const configDirectory =
    environment.SKILLOPT_CONFIG_DIR ||
    path.join(
      environment.XDG_CONFIG_HOME || (windows && environment.LOCALAPPDATA) || path.join(home, '.config'),
      windows ? dirname.replace('/', '\\') : dirname,
    );
  return existsSync(path.join(configDirectory, 'theme.json'));
}
