import type { ErroredRollout, ScoredRollout } from '@skillopt/contract';

export function scored(id: string, hard: number, extra: Partial<ScoredRollout> = {}): ScoredRollout {
  return {
    status: 'scored',
    id,
    taskType: 'factoid',
    hard,
    soft: hard,
    prediction: `answer-${id}`,
    trajectory: {
      turns: [
        { role: 'user', content: `question ${id}` },
        { role: 'assistant', content: `answer-${id}` },
      ],
      ...(hard === 0 ? { failureReason: 'wrong unit' } : {}),
    },
    ...extra,
  };
}

export function errored(id: string): ErroredRollout {
  return { status: 'errored', id, taskType: 'factoid', error: { code: 'provider-timeout', message: 'timed out', retryable: true } };
}

/** The trajectory ids a rendered prompt shows, in order. */
export function trajectoryIds(prompt: string): string[] {
  return [...prompt.matchAll(/### Trajectory \d+ \(id=([^,]+),/g)].map((match) => match[1] as string);
}

/** The numbered edits of a merge, rank or rewrite prompt: `[n] (support s...) {json}`. */
export function numberedEdits(prompt: string): Array<{ number: number; support: number; edit: { op: string; content?: string; target?: string } }> {
  return [...prompt.matchAll(/^\[(\d+)\] \(support (\d+)[^)]*\) (\{.*\})$/gm)].map((match) => ({
    number: Number(match[1]),
    support: Number(match[2]),
    edit: JSON.parse(match[3] as string) as { op: string; content?: string },
  }));
}
