import { SkillOptCommand } from './base-command.js';
import { errorLine, jsonLine, resultLine } from './output/json-lines.js';

/**
 * The base of a command that streams (`train`, `demo`): under --json it prints JSON Lines on
 * stdout, its run events as they happen (written by the progress display), then one last line,
 * `{"type":"result", ...}` with the value run() returns, or `{"type":"error", "error": {...}}`
 * (docs/cli-json.md). Nothing else reaches stdout; warnings go to stderr.
 */
export abstract class StreamingCommand extends SkillOptCommand {
  static override enableJsonFlag = true;

  /** The command that resumes the run, once one has started: the error line names it. */
  protected resumeCommand: string | undefined;

  protected override toSuccessJson(result: unknown): unknown {
    return resultLine(result as object);
  }

  protected override toErrorJson(error: unknown): unknown {
    const report = this.errorReport(error);
    return errorLine(this.resumeCommand === undefined ? report : { ...report, resumeCommand: this.resumeCommand });
  }

  protected override logJson(json: unknown): void {
    process.stdout.write(jsonLine(json));
  }
}
