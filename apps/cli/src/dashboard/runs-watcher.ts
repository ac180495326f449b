import { readRunSignature } from './run-signature.js';
import { runDirectoriesByName } from './run-directories.js';

type RunsChangedListener = (names: string[]) => void;

/** Tells its listeners which runs of a folder appeared, disappeared or changed. */
export interface RunsWatcher {
  /** Returns the function that stops the listener. */
  subscribe(listener: RunsChangedListener): () => void;
  close(): void;
}

/**
 * Polls the folder (fs.watch misses changes on some file systems and in containers): every
 * `intervalMs` it takes each run's signature (run-signature.ts), compares them with the last
 * poll's and, when any differ, tells the listeners the names of those runs. Runs are matched by
 * name, the dashboard's id of a run, so a run that appears or goes away is a change too. The
 * first poll only records what is there.
 */
export function watchRuns(folder: string, intervalMs: number): RunsWatcher {
  const listeners = new Set<RunsChangedListener>();
  let signatures: Map<string, string> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function poll(): Promise<void> {
    const current = new Map<string, string>();
    for (const [name, directory] of await runDirectoriesByName(folder)) current.set(name, await readRunSignature(directory));
    const previous = signatures;
    signatures = current;
    if (previous === undefined) return;
    const changed = [...new Set([...previous.keys(), ...current.keys()])].filter((name) => previous.get(name) !== current.get(name)).sort();
    if (changed.length > 0) for (const listener of listeners) listener(changed);
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      // A folder that cannot be read this time is read again at the next poll.
      poll()
        .catch(() => undefined)
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  poll()
    .catch(() => undefined)
    .finally(schedule);
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      listeners.clear();
    },
  };
}
