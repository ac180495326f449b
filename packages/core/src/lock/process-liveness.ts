/**
 * Whether a process with this pid runs on this host. Signal 0 checks without signalling: ESRCH
 * means no such process; EPERM means one runs that belongs to another user.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
