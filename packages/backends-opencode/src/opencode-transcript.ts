import { addUsage, type TranscriptEvent, type Usage } from '@skillopt/contract';
import type { TranscriptOutcome, TranscriptTranslation } from '@skillopt/backends-kit';
import { classifyOpencodeError, type OpencodeError } from './opencode-failure.js';
import { usageFromOpencodeStep, type OpencodeStepTokens } from './usage-mapping.js';

/**
 * A reader of what `opencode run --format json` prints, one event a line, each with `type`,
 * `sessionID` and a `part`. One step is one model call:
 * - `step_start` opens it; `text` (`part.text`) is text the model wrote in it, `tool_use`
 *   (`part.tool`, `part.state`) a tool it called, `reasoning` its thinking;
 * - `step_finish` closes it with the call's tokens (`part.tokens`);
 * - `error` (`error.name`, `error.data.message`) is the failure that ended the session.
 * The answer is the text of the last step that wrote any (what the model said after its last tool
 * call); the usage the sum of the steps'.
 */
export function readOpencodeTranscript(): TranscriptTranslation {
  let stepTexts: string[] = [];
  let finalText: string | undefined;
  const usages: Usage[] = [];
  let failure: OpencodeError | undefined;
  return {
    readEvent(event: TranscriptEvent) {
      const part = (event.part ?? {}) as { text?: unknown; tokens?: unknown };
      if (event.type === 'step_start') stepTexts = [];
      else if (event.type === 'text' && typeof part.text === 'string') {
        stepTexts.push(part.text);
        finalText = stepTexts.join('\n');
      } else if (event.type === 'step_finish') {
        const usage = usageFromOpencodeStep((part.tokens ?? {}) as OpencodeStepTokens);
        if (usage) usages.push(usage);
      } else if (event.type === 'error' && typeof event.error === 'object' && event.error !== null) failure = event.error as OpencodeError;
    },
    finish(): TranscriptOutcome {
      return {
        ...(finalText === undefined ? {} : { finalText }),
        ...(usages.length === 0 ? {} : { usage: addUsage(...usages) }),
        ...(failure === undefined ? {} : { failure: classifyOpencodeError(failure) }),
      };
    },
  };
}
