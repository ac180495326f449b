import type { SourceId } from '../harvest/session-record.js';
import type { SessionSource } from '../harvest/session-source.js';
import { opencodeSource } from './opencode-source.js';

/** Every source Sleep reads, in the order a harvest of all of them reads them. */
export const SESSION_SOURCES: readonly SessionSource[] = [opencodeSource];

/** The readers of the sources `ids`, in that order. */
export function sessionSourcesFor(ids: readonly SourceId[]): SessionSource[] {
  return ids.map((id) => {
    const source = SESSION_SOURCES.find((candidate) => candidate.id === id);
    if (source === undefined) throw new Error(`no reader is registered for the session source "${id}"`);
    return source;
  });
}
