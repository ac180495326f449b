import type { LiveConnection } from '../api/use-event-source.js';

/** Whether the page follows the server's events right now. */
export function LiveIndicator({ connection }: { connection: LiveConnection }) {
  const text = {
    open: 'Live: this page updates by itself.',
    connecting: 'Connecting to live updates…',
    reconnecting: 'Live updates lost: reconnecting…',
    closed: 'Live updates are off: reload the page to try again.',
  }[connection];
  return (
    <p className="live-indicator" data-testid="live-indicator" data-connection={connection}>
      <span className={`live-dot live-dot-${connection}`} aria-hidden="true" /> {text}
    </p>
  );
}
