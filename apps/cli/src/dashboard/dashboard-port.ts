import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { listenOrExplain } from '../serving/listen-or-explain.js';

/** The dashboard's port when none is asked for, and the ones after it taken when it is busy. */
export const DEFAULT_DASHBOARD_PORTS = { first: 5230, last: 5249 } as const;

export interface PortChoice<Server> {
  server: Server;
  /** Said to the user when the default port was busy: which port was taken instead. */
  note: string | undefined;
}

/**
 * Listens where the user asked, by the dashboard's port rule: an explicit port (0: any free one)
 * or nothing. With no port, the first of `defaults` is tried, then the next ones while they are
 * busy (a second dashboard, or anything else there), and the note says plainly where it went; an
 * explicit port that is busy is a user error naming it, as is every default port busy.
 */
export async function listenOnDashboardPort<Server extends { port: number }>(options: {
  host: string;
  port: number | undefined;
  listen: (port: number) => Promise<Server>;
  defaults?: { first: number; last: number };
}): Promise<PortChoice<Server>> {
  const { host, listen } = options;
  if (options.port !== undefined) {
    const port = options.port;
    return { server: await listenOrExplain(host, port, () => listen(port)), note: undefined };
  }
  const defaults = options.defaults ?? DEFAULT_DASHBOARD_PORTS;
  // Any other failure (an address not of this machine …) is explained naming the first port.
  return listenOrExplain(host, defaults.first, async () => {
    for (let port = defaults.first; port <= defaults.last; port += 1) {
      try {
        const server = await listen(port);
        return { server, note: port === defaults.first ? undefined : `port ${defaults.first} is busy; serving on ${port}` };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      }
    }
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `ports ${defaults.first} to ${defaults.last} are all in use: pick another with --port, or --port 0 for any free one`,
    });
  });
}
