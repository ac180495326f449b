import type { LiveConnection } from '../api/use-event-source.js';

/** Whether the page follows the server's events right now. */
export function LiveIndicator({ connection }: { connection: LiveConnection }) {
  const text =
    connection === 'open'
      ? 'Live: this page updates by itself.'
      : connection === 'connecting'
        ? 'Connecting to live updates…'
        : 'Live updates lost: reconnecting…';
  return (
    <p className="live-indicator" data-testid="live-indicator" data-connection={connection}>
      <span className={`live-dot live-dot-${connection}`} aria-hidden="true" /> {text}
    </p>
  );
}
