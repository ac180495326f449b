import { AnswerPendingError } from '@skillopt/contract';

/**
 * A Sleep command stopped because model requests wait for answers on disk (the handoff backend),
 * told what to do next. A night is not resumed: the same command run again starts it over, and
 * the answers written by then answer its requests again (the handoff backend keys a request by
 * what it asks, not by the run that asked), so each run gets further until one finishes. Core's
 * message names `skillopt train --resume`, which a Sleep command is not.
 */
export function answersPendingStop(error: AnswerPendingError, command: string): AnswerPendingError {
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
    message:
      `${waiting} for an answer${where}.${problems} Answer each request in its answer file, then run the same command again ` +
      `(\`${command}\` with the same flags): the answers written are reused, so each run gets further, until one finishes.`,
  });
}

/** For a command's `catch`: a stop for answers told to run `command` again; any other error as it was. */
export function rethrowAsAnswersPendingStop(command: string): (error: unknown) => never {
  return (error) => {
    throw AnswerPendingError.isInstance(error) ? answersPendingStop(error, command) : error;
  };
}
