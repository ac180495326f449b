import { AnswerPendingError } from '@skillopt/contract';

/** Requests left for an answer by several rollouts (or evaluations), as one stop: every id once, the first folder named. */
export function combinedAnswerPending(stops: readonly AnswerPendingError[]): AnswerPendingError {
  if (stops.length === 1) return stops[0] as AnswerPendingError;
  const directory = stops.find((stop) => stop.directory !== '')?.directory ?? '';
  return new AnswerPendingError({ requestIds: stops.flatMap((stop) => stop.requestIds), directory, problems: stops.flatMap((stop) => stop.problems) });
}

/**
 * A stop for answers, told what waits and where, then `nextStep`: what the user does once the
 * answers are written (a training resumes; a Sleep command is run again). `details` go along.
 */
export function answerPendingStop(error: AnswerPendingError, nextStep: string, details?: Record<string, unknown>): AnswerPendingError {
  const count = error.requestIds.length;
  const waiting = count === 0 ? 'Requests wait' : `${count} request${count === 1 ? ' waits' : 's wait'}`;
  const where = error.directory === '' ? '' : ` in ${error.directory} (listed in its index.json)`;
  const problems =
    error.problems.length === 0
      ? ''
      : ` ${error.problems.length} answer${error.problems.length === 1 ? ' was' : 's were'} not usable: ${error.problems.join('; ')}.`;
  return new AnswerPendingError({
    requestIds: error.requestIds,
    directory: error.directory,
    problems: error.problems,
    message: `${waiting} for an answer${where}.${problems} ${nextStep}`,
    ...(details === undefined ? {} : { details }),
  });
}
