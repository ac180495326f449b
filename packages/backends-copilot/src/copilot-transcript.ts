import { readFileSync } from 'node:fs';
import type { TranscriptEvent } from '@skillopt/contract';
import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import { classifyCopilotFailure, type CopilotSessionError } from './copilot-failure.js';
import { usageFromReport } from './usage-report.js';

/** The report `--usage-output-file` wrote, parsed; undefined when there is none (the run died first) or it is not JSON. */
export function readUsageReport(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A reader of what `copilot --output-format json` prints, one event a line:
 * - `assistant.message` (`data.content`, `data.toolRequests`): a message of the agent; the last one
 *   with text is its answer (a turn that only calls tools has empty content);
 * - `session.error` (`data.errorType`, `data.statusCode`, `data.message`): the failure that ended the session;
 * - `result` (`exitCode`): the end of the run.
 * Copilot prints no token counts on stdout: they come from the usage report, read once the run has
 * ended (`usageReport`, which reads the `--usage-output-file` of the run).
 */
export function readCopilotTranscript(usageReport: () => unknown = () => undefined): TranscriptTranslation {
  let finalText: string | undefined;
  let failure: CopilotSessionError | undefined;
  return {
    readEvent(event: TranscriptEvent) {
      const data = (event.data ?? {}) as Record<string, unknown>;
      if (event.type === 'assistant.message') {
        if (typeof data.content === 'string' && data.content.trim() !== '') finalText = data.content;
      } else if (event.type === 'session.error') {
        failure = data;
      }
    },
    finish(): TranscriptOutcome {
      const usage = usageFromReport(usageReport());
      return {
        ...(finalText === undefined ? {} : { finalText }),
        ...(usage === undefined ? {} : { usage }),
        ...(failure === undefined ? {} : { failure: classifyCopilotFailure(failure) }),
      };
    },
  };
}
