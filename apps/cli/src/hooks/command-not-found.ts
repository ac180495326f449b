import type { Hook } from '@oclif/core';
import { unknownCommandError } from '../usage/unknown-command.js';

/**
 * oclif's answer to an unknown command is "command trian not found"; @oclif/plugin-not-found's asks
 * on a terminal whether to run its guess and exits 127. This one names the nearest command and exits
 * 2, the exit code of every usage error, asking nothing, so a script gets the same answer as a person.
 */
const hook: Hook.CommandNotFound = async function (options) {
  const error = unknownCommandError(options.id.replaceAll(':', options.config.topicSeparator), options.config);
  this.error(error.message, { exit: 2 });
};

export default hook;
