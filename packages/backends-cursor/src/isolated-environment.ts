/**
 * The variables a Cursor process inherits from this one, and nothing else (the original's allowlist,
 * without HOME and the desktop session bus: each run gets a home of its own): the PATH, the user's
 * name and shell, the Windows system folders, the temp folder, the locale, the terminal, and the
 * proxy and certificate settings a network may need. Every other key, token and login stays out.
 */
export const CURSOR_INHERITED_VARIABLES: readonly string[] = [
  'PATH',
  'USER',
  'LOGNAME',
  'SHELL',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'NO_COLOR',
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

/** Where one run keeps Cursor's state: its private config folder (with cli-config.json) and a home of its own. */
export interface CursorRuntime {
  /** The run's temporary folder, which holds the rest and is removed afterwards. */
  directory: string;
  configDirectory: string;
}

/**
 * What is set for a Cursor process on top: CURSOR_CONFIG_DIR at the run's config folder (so the
 * user's `~/.cursor/cli-config.json`, rules, MCP servers and login are never read), CURSOR_DATA_DIR
 * and HOME at the run's temporary folder (its chats and caches go there and are removed with it), a
 * dumb terminal, and the API key.
 */
export function cursorEnvironment(runtime: CursorRuntime, apiKey: string): Record<string, string> {
  return {
    CURSOR_CONFIG_DIR: runtime.configDirectory,
    CURSOR_DATA_DIR: runtime.directory,
    HOME: runtime.directory,
    TERM: 'dumb',
    CURSOR_API_KEY: apiKey,
  };
}
