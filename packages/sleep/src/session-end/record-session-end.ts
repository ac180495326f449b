import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { SOURCE_IDS, type SourceId } from '../harvest/session-record.js';
import { SESSION_END_RECORD_FORMAT, type SessionEndRecord, sessionEndLogFile } from './session-end-record.js';

/**
 * What an agent gives its session-end hook, read loosely: the keys Sleep records, every other key
 * (a prompt id, what a later version adds) ignored. Claude Code 2.1 sends `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name` and `reason`; the Devin CLI sends `session_id` (a
 * slug such as `bramble-scorpion`), `prompt_id`, `hook_event_name` and `reason`, with no `cwd` and
 * no transcript: its project comes from `DEVIN_PROJECT_DIR`.
 */
const hookInputSchema = z.object({
  session_id: z.string().min(1),
  transcript_path: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  reason: z.string().optional(),
});

/**
 * The variable in which an agent tells its hooks the folder it was opened on. Devin sets
 * `DEVIN_PROJECT_DIR`; Claude Code, and the agents that copy its hooks, `CLAUDE_PROJECT_DIR`.
 */
function projectVariableOf(source: SourceId): string {
  return source === 'devin' ? 'DEVIN_PROJECT_DIR' : 'CLAUDE_PROJECT_DIR';
}

// One write of at most PIPE_BUF bytes to a file opened for appending is never interleaved with
// another hook's: concurrent sessions ending at once each leave a whole line.
const MAX_RECORD_BYTES = 4096;

export interface RecordSessionEndOptions {
  /** The agent whose session ended. */
  source: SourceId;
  /** The hook's input, parsed from the JSON the agent wrote to its stdin. */
  hookInput: unknown;
  /**
   * The hook's environment (default this process's): `SKILLOPT_SLEEP_HOME` or `HOME` for the state
   * directory, `CLAUDE_PROJECT_DIR` (Devin: `DEVIN_PROJECT_DIR`) for the project.
   */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
  now?: Date | undefined;
}

/**
 * `mkdir -p` that gives up: Node 20's own recursive mkdir spins for ever where a parent exists but
 * the folder cannot be made in it (under `/proc`), and a hook must never hang. Folders made are
 * for their owner only.
 */
async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    await makeFolder(parent);
    await mkdir(folder, { mode: 0o700 }).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * Appends one line to `<state directory>/session-ends.jsonl` naming the session that ended, its
 * transcript and its project, and returns it. Nothing the developer or the agent said is recorded.
 * The state directory is created (only its owner may enter it) when it does not exist yet.
 */
export async function recordSessionEnd(options: RecordSessionEndOptions): Promise<SessionEndRecord> {
  const { source } = options;
  if (!SOURCE_IDS.includes(source)) throw new Error(`unknown source ${JSON.stringify(source)}; one of ${SOURCE_IDS.join(', ')}`);
  const environment = options.environment ?? process.env;
  const parsed = hookInputSchema.safeParse(options.hookInput);
  if (!parsed.success) throw new Error(`the hook input is not a session end: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
  const input = parsed.data;
  // The folder the agent was opened on: a session that moved below it still belongs to it.
  const projectVariable = projectVariableOf(source);
  const folder = nonEmpty(environment[projectVariable]) ?? input.cwd;
  if (folder === undefined) throw new Error(`the hook input names no folder (cwd) and ${projectVariable} is not set`);
  const base = input.cwd ?? '.';
  const record: SessionEndRecord = {
    format: SESSION_END_RECORD_FORMAT,
    source,
    sessionId: input.session_id,
    transcriptPath: input.transcript_path === undefined ? null : path.resolve(base, input.transcript_path),
    project: path.resolve(base, folder),
    reason: input.reason ?? null,
    endedAt: (options.now ?? new Date()).toISOString(),
  };
  const line = `${JSON.stringify(record)}\n`;
  if (Buffer.byteLength(line) > MAX_RECORD_BYTES) throw new Error(`the record would be longer than ${MAX_RECORD_BYTES} bytes`);
  const stateDirectory = defaultStateDirectory(environment);
  await makeFolder(stateDirectory);
  await appendFile(sessionEndLogFile(stateDirectory), line, { mode: 0o600 });
  return record;
}
