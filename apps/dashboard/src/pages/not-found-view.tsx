import { runsHref } from '../router/hash-route.js';

/** A location that names no page of the dashboard. */
export function NotFoundView({ hash }: { hash: string }) {
  return (
    <>
      <h1>No such page</h1>
      <p>
        The dashboard has no page at <code>{hash}</code>. <a href={runsHref()}>See the runs</a>.
      </p>
    </>
  );
}
