import { Command, Flags } from '@oclif/core';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { unknownFlagError } from './usage/unknown-flag.js';

/** The exit codes of every command (README, "Exit codes"): 128 + the signal's number for a stop by signal, as shells report it. */
export const EXIT_CODES = { ok: 0, runFailed: 1, usageOrConfig: 2, interrupted: 130, terminated: 143 } as const;

/** The signals that stop a long command at a safe point (Ctrl-C, and a service manager's or container's stop), with the exit code of each. */
export const STOP_SIGNALS = { SIGINT: EXIT_CODES.interrupted, SIGTERM: EXIT_CODES.terminated } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;
export const STOP_SIGNAL_NAMES = Object.keys(STOP_SIGNALS) as StopSignal[];

/** The reason a stop signal aborts a command with: `aborted`, naming the signal, so the exit code can follow it. */
export function stoppedBy(signal: StopSignal): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.aborted,
    category: 'user',
    message: signal === 'SIGINT' ? 'interrupted' : 'terminated (SIGTERM)',
    details: { signal },
  });
}

function exitCodeOf(error: SkillOptError): number {
  if (error.code === ERROR_CODES.aborted) return error.details?.signal === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
  // A model the provider does not know is the config's to fix (model.target, model.optimizer), not a failure of the run.
  if (error.category === 'user' || error.code === ERROR_CODES.modelNotFound) return EXIT_CODES.usageOrConfig;
  return EXIT_CODES.runFailed;
}

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
 * documented exit code (2 for the user's config or input, an unknown model included, 130 for
 * Ctrl-C, 143 for SIGTERM, 1 otherwise) instead of a stack trace.
 */
export abstract class SkillOptCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    error = unknownFlagError(error, `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trimEnd()) ?? error;
    if (SkillOptError.isInstance(error)) this.error(error.message, { exit: exitCodeOf(error) });
    return super.catch(error);
  }
}
