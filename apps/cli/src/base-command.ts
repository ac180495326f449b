import { Command, Errors, Flags } from '@oclif/core';
import { ERROR_CODES, redactSecrets, SkillOptError } from '@skillopt/contract';
import { writeWarning } from './inspection/write-output.js';
import { type ErrorReport, errorReportOf, formatErrorText } from './output/error-report.js';
import { unknownFlagError } from './usage/unknown-flag.js';

/** The exit codes of every command (README, "Exit codes"): 128 + the signal's number for a stop by signal, as shells report it. */
export const EXIT_CODES = { ok: 0, runFailed: 1, usageOrConfig: 2, answerPending: 3, interrupted: 130, terminated: 143 } as const;

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

function exitCodeOf(error: unknown): number {
  if (!SkillOptError.isInstance(error)) {
    // oclif's own errors (a refused flag: 2) carry theirs.
    const exit = (error as { oclif?: { exit?: unknown } } | undefined)?.oclif?.exit;
    return typeof exit === 'number' ? exit : EXIT_CODES.runFailed;
  }
  if (error.code === ERROR_CODES.aborted) return error.details?.signal === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
  // Requests wait on disk for the user's own agent (the handoff backend): the run stopped to resume, not failed.
  if (error.code === ERROR_CODES.answerPending) return EXIT_CODES.answerPending;
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
 * The base of every skillopt command: a SkillOptError becomes its message on stderr, unwrapped,
 * and the documented exit code (2 for the user's config or input, an unknown model included, 3
 * when requests wait for answers on disk, 130 for Ctrl-C, 143 for SIGTERM, 1 otherwise) instead of a stack trace. Under --json (oclif's JSON
 * mode, `static enableJsonFlag`) the value run() returns is printed as JSON on stdout, and so is
 * any error, as `{"error": {code, category, message, remedy?, exitCode, details?}}`
 * (docs/cli-json.md); secrets are cut out of both. Warnings go to stderr, --json or not.
 */
export abstract class SkillOptCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    error = unknownFlagError(error, `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trimEnd()) ?? error;
    // `this.exit(code)`: the command has printed what it had to; only the code is left.
    if (error instanceof Errors.ExitError) throw error;
    if (this.jsonEnabled()) {
      const report = this.errorReport(error);
      // The text on stderr too: a person watching `--json > file` still sees why it stopped.
      process.stderr.write(formatErrorText(report));
      this.logJson(this.toErrorJson(error));
      process.exitCode = report.exitCode;
      return;
    }
    if (SkillOptError.isInstance(error)) {
      const report = this.errorReport(error);
      process.stderr.write(formatErrorText(report));
      // Printed already: oclif only ends the process with the code (and keeps it for @oclif/test).
      const printed = new Errors.CLIError(error.message, { exit: report.exitCode });
      printed.skipOclifErrorHandling = true;
      throw printed;
    }
    return super.catch(error);
  }

  protected errorReport(error: unknown): ErrorReport {
    return errorReportOf(error, exitCodeOf(error));
  }

  protected override toErrorJson(error: unknown): unknown {
    return { error: this.errorReport(error) };
  }

  protected override logJson(json: unknown): void {
    // Plain JSON, never colourised, written past `console` (see inspection/write-output.ts).
    process.stdout.write(`${JSON.stringify(this.redactForOutput(json), null, 2)}\n`);
  }

  /** What --json prints: the value with every secret cut out (contract's redactSecrets). */
  protected redactForOutput(value: unknown): unknown {
    return redactSecrets(value);
  }

  override warn(input: string | Error): string | Error {
    writeWarning(input instanceof Error ? input.message : input);
    return input;
  }
}
