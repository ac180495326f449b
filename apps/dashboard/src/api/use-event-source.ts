import { useEffect, useRef, useState } from 'react';

/** Where a server-sent event stream stands: the browser reconnects by itself after a network error, and gives up when the server refuses the stream. */
export type LiveConnection = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * Listens to the named events of a server-sent event stream while the component is mounted. The
 * handlers may change on every render; the connection is made again only when `path` changes.
 */
export function useEventSource(path: string, handlers: Record<string, (data: string) => void>): LiveConnection {
  const [connection, setConnection] = useState<LiveConnection>('connecting');
  const latestHandlers = useRef(handlers);
  useEffect(() => {
    latestHandlers.current = handlers;
  });
  const eventNames = Object.keys(handlers).sort().join('\n');
  useEffect(() => {
    setConnection('connecting');
    const source = new EventSource(path);
    source.addEventListener('open', () => setConnection('open'));
    source.addEventListener('error', () => setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'));
    for (const name of eventNames.split('\n'))
      source.addEventListener(name, (event) => {
        latestHandlers.current[name]?.((event as MessageEvent<string>).data);
      });
    return () => source.close();
  }, [path, eventNames]);
  return connection;
}
