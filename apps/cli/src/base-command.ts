import { Command, Flags } from '@oclif/core';
import { SkillOptError } from '@skillopt/contract';

/** The exit codes of every command (README, "Exit codes"). */
export const EXIT_CODES = { ok: 0, runFailed: 1, usageOrConfig: 2, interrupted: 130 } as const;

/** Flags of the commands that read a run configuration. */
export const configFlags = {
  config: Flags.string({ char: 'c', description: 'YAML run config (default: the discovered skillopt.config.*, .skilloptrc* or package.json "skillopt" key)' }),
  set: Flags.string({ description: 'override a config key, e.g. --set train.num_epochs=2 (repeatable)', multiple: true, default: [] }),
  'cfg-options': Flags.string({ description: "the original SkillOpt's spelling of --set: --cfg-options k=v k2=v2", multiple: true, default: [] }),
};

/** `--set` and `--cfg-options` values in the order given; `--cfg-options a=1 b=2` may hold several. */
export function overridesOf(flags: { set: string[]; 'cfg-options': string[] }): string[] {
  return [...flags.set, ...flags['cfg-options'].flatMap((value) => value.split(/\s+/).filter(Boolean))];
}

/**
 * The base of every skillopt command: a SkillOptError becomes a one-line message and the
 * documented exit code (2 for the user's config or input, 130 for an interrupt, 1 otherwise)
 * instead of a stack trace.
 */
export abstract class SkillOptCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (SkillOptError.isInstance(error)) {
      const exit = error.code === 'aborted' ? EXIT_CODES.interrupted : error.category === 'user' ? EXIT_CODES.usageOrConfig : EXIT_CODES.runFailed;
      this.error(error.message, { exit });
    }
    return super.catch(error);
  }
}
