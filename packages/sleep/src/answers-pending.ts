import { AnswerPendingError } from '@skillopt/contract';
import { answerPendingStop } from '@skillopt/core';

/**
 * A Sleep command stopped because model requests wait for answers on disk (the handoff backend),
 * told what to do next. A night is not resumed: the same command run again starts it over, and
 * the answers written by then answer its requests again (the handoff backend keys a request by
 * what it asks, not by the run that asked), so each run gets further until one finishes. Core's
 * message names `skillopt train --resume`, which a Sleep command is not.
 */
export function answersPendingStop(error: AnswerPendingError, command: string): AnswerPendingError {
  return answerPendingStop(
    error,
    `Answer each request in its answer file, then run the same command again (\`${command}\` with the same flags): the answers written are reused, so each run gets further, until one finishes.`,
  );
}

/** For a command's `catch`: a stop for answers told to run `command` again; any other error as it was. */
export function rethrowAsAnswersPendingStop(command: string): (error: unknown) => never {
  return (error) => {
    throw AnswerPendingError.isInstance(error) ? answersPendingStop(error, command) : error;
  };
}
