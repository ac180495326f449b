import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use (pick another with --port, or --port 0 for any free one)',
  EADDRNOTAVAIL: 'that address does not belong to this machine',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
};

/** A failed `listen` as a one-line user error that says what to change, instead of a stack trace. */
export async function listenOrExplain<T>(host: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === undefined ? undefined : LISTEN_PROBLEMS[code];
    if (problem === undefined) throw error;
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `cannot listen on ${host} port ${port}: ${problem} (${code})` });
  }
}
