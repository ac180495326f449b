import { useCallback, useEffect, useState } from 'react';
import { fetchJson } from './fetch-json.js';

/**
 * One API resource as a page sees it: no data yet (loading, or failed with `error`), or data,
 * possibly with the error of a later reload (the last data stays on screen while it is retried).
 */
export interface ApiResource<Data> {
  data: Data | undefined;
  error: string | undefined;
  /** Fetches it again, keeping what is shown until the answer comes. */
  reload: () => void;
}

interface Fetched<Data> {
  path: string;
  data?: Data;
  error?: string;
}

/** GETs `path` from the API, again whenever `path` changes or `reload` is called; an older answer never overwrites a newer one. */
export function useApiResource<Data>(path: string): ApiResource<Data> {
  const [generation, setGeneration] = useState(0);
  const [fetched, setFetched] = useState<Fetched<Data>>({ path });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the reload counter: a new value fetches again.
  useEffect(() => {
    const controller = new AbortController();
    void fetchJson<Data>(path, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setFetched({ path, data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setFetched((previous) => ({ path, ...(previous.path === path && previous.data !== undefined ? { data: previous.data } : {}), error: message }));
      },
    );
    return () => controller.abort();
  }, [path, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const current = fetched.path === path;
  return { data: current ? fetched.data : undefined, error: current ? fetched.error : undefined, reload };
}
