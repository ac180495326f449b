import type { LiveConnection } from '../api/use-event-source.js';
import type { RunListEntry } from '../api/api-types.js';

/** How the run stands, in one sentence: in progress (and whether the page follows it live), finished, or stopped with the command that resumes it. */
export function RunStatusBanner({ run, connection }: { run: RunListEntry; connection?: LiveConnection | undefined }) {
  return (
    <div className={`status-banner status-${run.status.replace(' ', '-')}`} role="status" data-testid="run-status-banner" data-status={run.status}>
      <p>
        <strong>This run is {bannerHeadline(run, connection)}</strong>
        {run.stop === null ? null : (
          <>
            {' '}
            — resume with <code data-testid="run-resume-command">{run.stop.resumeCommand}</code>
          </>
        )}
      </p>
      {run.stop === null || run.stop.message === '' ? null : <p className="status-message">{run.stop.message}</p>}
    </div>
  );
}

function bannerHeadline(run: RunListEntry, connection: LiveConnection | undefined): string {
  switch (run.status) {
    case 'in progress':
      if (connection === 'reconnecting') return 'in progress (live updates lost: reconnecting…)';
      if (connection === 'closed') return 'in progress (live updates are off: reload the page)';
      return 'in progress (live)';
    case 'finished':
      return 'finished';
    case 'stopped':
      return `stopped: ${run.stop?.reason ?? 'unknown reason'}`;
    case 'not started':
      return 'not started: nothing has been committed yet';
  }
}
