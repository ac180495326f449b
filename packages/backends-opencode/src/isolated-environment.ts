import path from 'node:path';
import { OPENCODE_CHILD_API_KEY_VARIABLE } from './provider.js';

/**
 * The variables an OpenCode process inherits from this one, and nothing else: the PATH (to find
 * the shell), the locale and time zone, the temp folder, and the proxy and certificate settings a
 * network may need. Every key, token and login of the user's environment stays out, and so do
 * OpenCode's own OPENCODE_CONFIG / OPENCODE_CONFIG_DIR, which would add the user's config.
 */
export const OPENCODE_INHERITED_VARIABLES: readonly string[] = [
  'PATH',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'SYSTEMROOT',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
];

/** The inherited names: the fixed list and the config's `pass_environment`. */
export function inheritedVariables(passEnvironment: readonly string[]): string[] {
  return [...new Set([...OPENCODE_INHERITED_VARIABLES, ...passEnvironment])];
}

/**
 * What OpenCode does beside the run's model calls, each turned off: the models catalogue it fetches
 * from models.dev, its update check, LSP servers it would download, sharing, the terminal title,
 * and the npm install of its plugin package (npm stays offline, so it fails at once, harmlessly).
 */
const QUIET_VARIABLES: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_TERMINAL_TITLE: '1',
  OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
  npm_config_offline: 'true',
  NO_COLOR: '1',
  TERM: 'dumb',
};

/**
 * What is set for an OpenCode process on top: its state folder of this run as HOME and as the four
 * XDG folders (so OpenCode neither reads nor writes the user's config, sessions database, caches
 * or logs, and the shell it runs commands in reads none of the user's dotfiles), the run's config
 * as OPENCODE_CONFIG_CONTENT, and the API key in the variable that config names.
 */
export function opencodeEnvironment(home: string, configContent: string, apiKey: string): Record<string, string> {
  return {
    ...QUIET_VARIABLES,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    OPENCODE_CONFIG_CONTENT: configContent,
    [OPENCODE_CHILD_API_KEY_VARIABLE]: apiKey,
  };
}
