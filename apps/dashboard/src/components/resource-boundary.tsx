import type { ReactNode } from 'react';
import type { ApiResource } from '../api/use-api-resource.js';

/**
 * The states of a page's data: loading, the API's error when there is nothing to show, else the
 * page itself, with a note when a later reload failed (what is shown may be out of date).
 */
export function ResourceBoundary<Data>({ title, resource, children }: { title: string; resource: ApiResource<Data>; children: (data: Data) => ReactNode }) {
  if (resource.data === undefined)
    return (
      <>
        <h1>{title}</h1>
        {resource.error === undefined ? (
          <p className="notice" role="status" data-testid="loading">
            Loading…
          </p>
        ) : (
          <p className="notice notice-error" role="alert" data-testid="api-error">
            The dashboard could not load this: {resource.error}
          </p>
        )}
      </>
    );
  return (
    <>
      {resource.error === undefined ? null : (
        <p className="notice notice-error" role="alert" data-testid="api-error">
          Could not refresh: {resource.error}. What is shown may be out of date.
        </p>
      )}
      {children(resource.data)}
    </>
  );
}
