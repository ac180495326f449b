import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { SandboxNetwork } from './sandbox.js';
import { resourceLimitArguments, type SandboxLimits } from './sandbox-limits.js';

/** The system tools a run goes through inside the sandbox, from the read-only /usr. */
export const SANDBOX_TOOLS = Object.freeze({
  setpriv: '/usr/bin/setpriv',
  unshare: '/usr/bin/unshare',
  prlimit: '/usr/bin/prlimit',
});

export interface BubblewrapInvocation {
  /**
   * How the sandbox gets an unprivileged user. `as-root`: bubblewrap runs as root and sets up the
   * mounts with root's access (so an interpreter under /root can be bound), then `setpriv` drops to
   * `userId`/`groupId` and `unshare` gives the run a user namespace of its own, in which the process
   * limit counts only the run's processes. `as-caller`: this process is not root, so bubblewrap
   * makes the user namespace itself and the run keeps the caller's uid.
   */
  mode: 'as-root' | 'as-caller';
  userId: number;
  groupId: number;
  workDirectory: string;
  /** Bound read-write like the work directory (an agent CLI's state folder). */
  readWritePaths: readonly string[];
  readOnlyPaths: readonly string[];
  network: SandboxNetwork;
  limits: SandboxLimits;
  command: string;
  args: readonly string[];
}

// The top-level names of a usr-merged system's /usr (links on Debian, directories on older systems).
const SYSTEM_DIRECTORIES = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'] as const;
// What Debian's python3 needs of /etc: the linker's cache and the alternatives its libblas is found through.
const SYSTEM_FILES = ['/etc/ld.so.cache', '/etc/alternatives'] as const;
// What a program that reaches a server by name needs besides, when the network is shared.
const NETWORK_FILES = ['/etc/hosts', '/etc/resolv.conf', '/etc/nsswitch.conf', '/etc/ssl', '/etc/ca-certificates'] as const;

/** The arguments of `bwrap` that run `invocation.command` in a fresh sandbox. */
export function bubblewrapArguments(invocation: BubblewrapInvocation): string[] {
  const args = ['--die-with-parent', '--new-session'];
  args.push(...namespaceArguments(invocation));
  args.push('--ro-bind', '/usr', '/usr');
  for (const name of SYSTEM_DIRECTORIES) args.push(...systemDirectoryArguments(`/${name}`));
  args.push('--perms', '0755', '--dir', '/etc');
  const etcFiles = invocation.network === 'shared' ? [...SYSTEM_FILES, ...NETWORK_FILES] : SYSTEM_FILES;
  for (const file of etcFiles) args.push('--ro-bind-try', file, file);
  args.push('--proc', '/proc', '--dev', '/dev');
  // A tmpfs lives in the host's memory: its size keeps /tmp from being a way around the file-size limit.
  args.push('--perms', '1777', '--size', String(4 * invocation.limits.fileSizeBytes), '--tmpfs', '/tmp');
  // The writable directories first, so that a read-only path inside one stays read-only.
  args.push(...parentDirectoryArguments(invocation.workDirectory), '--bind', invocation.workDirectory, invocation.workDirectory);
  for (const readWritePath of invocation.readWritePaths) args.push(...parentDirectoryArguments(readWritePath), '--bind', readWritePath, readWritePath);
  for (const readOnlyPath of invocation.readOnlyPaths) args.push(...parentDirectoryArguments(readOnlyPath), '--ro-bind', readOnlyPath, readOnlyPath);
  args.push('--chdir', invocation.workDirectory, '--remount-ro', '/', '--');
  if (invocation.mode === 'as-root')
    args.push(
      SANDBOX_TOOLS.setpriv,
      `--reuid=${invocation.userId}`,
      `--regid=${invocation.groupId}`,
      '--clear-groups',
      '--bounding-set=-all',
      '--inh-caps=-all',
      '--',
      SANDBOX_TOOLS.unshare,
      '--user',
      `--map-user=${invocation.userId}`,
      `--map-group=${invocation.groupId}`,
      '--',
    );
  args.push(SANDBOX_TOOLS.prlimit, ...resourceLimitArguments(invocation.limits), invocation.command, ...invocation.args);
  return args;
}

function namespaceArguments(invocation: BubblewrapInvocation): string[] {
  if (invocation.mode === 'as-caller') return ['--unshare-all', ...(invocation.network === 'shared' ? ['--share-net'] : []), '--cap-drop', 'ALL'];
  // No user namespace of bubblewrap's own: it would map the run's user to root. setpriv needs the
  // first three capabilities to drop to the sandbox's user and clear the rest, and bubblewrap the
  // fourth to enter a work directory that already belongs to that user; the run keeps none.
  return [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(invocation.network === 'none' ? ['--unshare-net'] : []),
    '--cap-drop',
    'ALL',
    '--cap-add',
    'CAP_SETUID',
    '--cap-add',
    'CAP_SETGID',
    '--cap-add',
    'CAP_SETPCAP',
    '--cap-add',
    'CAP_DAC_READ_SEARCH',
  ];
}

function systemDirectoryArguments(directory: string): string[] {
  try {
    const status = lstatSync(directory);
    if (status.isSymbolicLink()) return ['--symlink', readlinkSync(directory), directory];
    if (status.isDirectory()) return ['--ro-bind', directory, directory];
  } catch {
    // Not on this system (lib32 on most): nothing to bind.
  }
  return [];
}

/** bubblewrap creates missing parents of a mount point readable by root alone; these make them traversable by the run's user. */
function parentDirectoryArguments(target: string): string[] {
  const args: string[] = [];
  const parents: string[] = [];
  for (let parent = path.dirname(target); parent !== path.dirname(parent); parent = path.dirname(parent)) parents.unshift(parent);
  for (const parent of parents) args.push('--perms', '0755', '--dir', parent);
  return args;
}
