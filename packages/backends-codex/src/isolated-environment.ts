import { CODEX_CHILD_API_KEY_VARIABLE } from './provider.js';

/**
 * The variables a Codex process inherits from this one, and nothing else: the PATH (to find Node
 * and the shell), the locale and time zone, the temp folder, and the proxy and certificate
 * settings a network may need. Every key, token and login of the user's environment stays out.
 */
export const CODEX_INHERITED_VARIABLES: readonly string[] = [
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

/**
 * What is set for a Codex process on top: its state folder of this run as both CODEX_HOME and
 * HOME (so neither Codex nor the login shell it runs commands in reads or writes the user's own
 * `~/.codex` or dotfiles), and the API key in the variable our model provider names.
 */
export function codexEnvironment(home: string, apiKey: string): Record<string, string> {
  return { CODEX_HOME: home, HOME: home, TERM: 'dumb', [CODEX_CHILD_API_KEY_VARIABLE]: apiKey };
}
