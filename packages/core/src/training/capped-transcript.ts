import type { TranscriptEvent } from '@skillopt/contract';

/** What a step keeps of an agent's transcript: its first and last events within a byte budget, and how many were left out. */
export interface CappedTranscript {
  events: TranscriptEvent[];
  omittedEvents: number;
}

/**
 * An agent's transcript cut to about `maxBytes` of JSON: the events from its start up to half the
 * budget and from its end up to the other half (where its result is), the middle left out and
 * counted. A transcript can hold whole files the agent read; a step's artifacts stay small.
 * Secrets are cut out on the way to disk, as from every artifact.
 */
export function cappedTranscript(transcript: readonly TranscriptEvent[], maxBytes: number): CappedTranscript {
  const sizes = transcript.map((event) => Buffer.byteLength(JSON.stringify(event)));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return { events: [...transcript], omittedEvents: 0 };
  const half = maxBytes / 2;
  let headEnd = 0;
  for (let used = 0; headEnd < transcript.length && used + (sizes[headEnd] as number) <= half; headEnd += 1) used += sizes[headEnd] as number;
  let tailStart = transcript.length;
  for (let used = 0; tailStart > headEnd && used + (sizes[tailStart - 1] as number) <= half; tailStart -= 1) used += sizes[tailStart - 1] as number;
  return { events: [...transcript.slice(0, headEnd), ...transcript.slice(tailStart)], omittedEvents: tailStart - headEnd };
}
