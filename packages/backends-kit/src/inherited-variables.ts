/**
 * The variables an agent CLI's process may inherit from ours whatever the harness: the PATH (to
 * find Node and a shell), the locale and time zone, the temp folder, and the proxy and certificate
 * settings a network may need. Every key, token and login of the user's environment stays out; a
 * harness package adds what its CLI needs beside these (a shared cache folder, a Windows variable).
 */
export const HARNESS_INHERITED_VARIABLES: readonly string[] = Object.freeze([
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
]);
