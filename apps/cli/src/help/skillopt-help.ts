import { Errors, Help, toConfiguredId } from '@oclif/core';
import { unknownCommandError } from '../usage/unknown-command.js';

// What oclif 4's Help.showHelp says of a subject that is no command or topic.
const SUBJECT_NOT_FOUND = /^Command (.+) not found\.$/;

/**
 * oclif's help with one change: help asked of a name that is no command or topic (`skillopt tarin
 * --help`, `skillopt help tarin`) names the nearest command and exits 2, as `skillopt tarin` does.
 * Everything it prints is oclif's, so the fast path's root help stays the same text.
 */
export default class SkillOptHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    try {
      await super.showHelp(argv);
    } catch (error) {
      const subject = SUBJECT_NOT_FOUND.exec(error instanceof Error ? error.message : '')?.[1];
      if (subject === undefined) throw error;
      Errors.error(unknownCommandError(toConfiguredId(subject, this.config), this.config).message, { exit: 2 });
    }
  }
}
