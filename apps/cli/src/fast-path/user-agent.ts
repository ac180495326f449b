import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * oclif's user agent, which `--version` prints and root help shows:
 * `<package name>/<version> <platform>-<arch> node-<node version>`. undefined under what may be
 * WSL, where oclif says `wsl` after a container check this does not reproduce.
 */
export function userAgentOf(name: string, version: string): string | undefined {
  if (process.platform === 'linux' && mayBeWindowsSubsystemForLinux()) return undefined;
  const arch = os.arch() === 'ia32' ? 'x86' : os.arch();
  return `${name}/${version} ${os.platform()}-${arch} node-${process.version}`;
}

function mayBeWindowsSubsystemForLinux(): boolean {
  if (os.release().toLowerCase().includes('microsoft')) return true;
  try {
    return readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft');
  } catch {
    return false;
  }
}
