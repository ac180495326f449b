import { AnswerPendingError } from '@skillopt/contract';

/** Requests left for an answer by several rollouts (or evaluations), as one stop: every id once, the first folder named. */
export function combinedAnswerPending(stops: readonly AnswerPendingError[]): AnswerPendingError {
  if (stops.length === 1) return stops[0] as AnswerPendingError;
  const directory = stops.find((stop) => stop.directory !== '')?.directory ?? '';
  return new AnswerPendingError({ requestIds: stops.flatMap((stop) => stop.requestIds), directory, problems: stops.flatMap((stop) => stop.problems) });
}
