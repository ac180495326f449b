import { forEachJsonLine } from '../harvest/json-lines.js';
import { SOURCE_IDS, type SourceId } from '../harvest/session-record.js';
import { SESSION_END_RECORD_FORMAT, type SessionEndRecord, sessionEndLogFile } from './session-end-record.js';

export interface SessionEndRecordsOptions {
  /** Only the sessions that ended at or after this time. */
  since?: Date | undefined;
  /** Told of each line passed over, with its number and why. */
  onCorruptLine?: ((lineNumber: number, message: string) => void) | undefined;
}

export interface SessionEndRecords {
  /** The records, in the order the hooks appended them. */
  records: SessionEndRecord[];
  /** Lines passed over: torn, edited by hand, or of a format or source this release does not know. */
  corruptLineCount: number;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The record a line holds, or why it holds none. Checked by hand: the harvest reads this log, and it loads no zod. */
function sessionEndRecordOf(value: unknown): SessionEndRecord | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const line = value as Record<string, unknown>;
  if (line.format !== SESSION_END_RECORD_FORMAT) return `not a ${SESSION_END_RECORD_FORMAT} record`;
  if (!SOURCE_IDS.includes(line.source as SourceId)) return `an unknown source: ${String(line.source)}`;
  const { source, sessionId, transcriptPath, project, reason, endedAt } = line;
  if (!isText(sessionId) || !isText(project) || !isText(endedAt) || Number.isNaN(Date.parse(endedAt))) return 'a session id, project or end time missing';
  if (!(transcriptPath === null || isText(transcriptPath)) || !(reason === null || typeof reason === 'string'))
    return 'a transcript path or reason of the wrong type';
  return { format: SESSION_END_RECORD_FORMAT, source: source as SourceId, sessionId, transcriptPath, project, reason, endedAt };
}

/** The records of one session-end log; a log that does not exist holds none. */
export async function readSessionEndLog(file: string, options: SessionEndRecordsOptions = {}): Promise<SessionEndRecords> {
  const since = options.since?.getTime();
  const records: SessionEndRecord[] = [];
  let corruptLineCount = 0;
  const corrupt = (lineNumber: number, message: string) => {
    corruptLineCount += 1;
    options.onCorruptLine?.(lineNumber, message);
  };
  try {
    await forEachJsonLine(
      file,
      (value, lineNumber) => {
        const record = sessionEndRecordOf(value);
        if (typeof record === 'string') corrupt(lineNumber, record);
        else if (since === undefined || Date.parse(record.endedAt) >= since) records.push(record);
      },
      { onCorruptLine: corrupt },
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  return { records, corruptLineCount };
}

/**
 * The sessions the agents' session-end hooks recorded in a state directory's log
 * (`session-ends.jsonl`), oldest first. A line that is not a record is passed over and counted.
 */
export async function readSessionEndRecords(stateDirectory: string, options: SessionEndRecordsOptions = {}): Promise<SessionEndRecords> {
  return readSessionEndLog(sessionEndLogFile(stateDirectory), options);
}
