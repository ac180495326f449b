import path from 'node:path';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SourceContext } from '../../harvest/session-source.js';
import { type VerificationSignal, verificationResults } from './verification-results.js';
import { deepestWorkspaceIn } from './workspace-in-text.js';

/**
 * One Devin CLI transcript, an ATIF document (Agent Trajectory Interchange Format): a session's
 * `steps`, each from the `user`, the `agent` or the `system`, with its `message`, `timestamp` and,
 * for agent steps, `tool_calls` by `function_name`. System steps are the tool's own framing and
 * are not the conversation. Observations (tool outputs) are never read.
 */

interface AtifStep {
  source?: unknown;
  message?: unknown;
  timestamp?: unknown;
  tool_calls?: unknown;
}

interface AtifTrajectory {
  schema_version?: unknown;
  session_id?: unknown;
  agent?: { extra?: unknown } | null;
  extra?: unknown;
  steps?: unknown;
}

/** Whether a parsed JSON document is an ATIF trajectory (and not some other file of that folder). */
export function isAtifTrajectory(value: unknown): value is AtifTrajectory {
  const version = (value as AtifTrajectory | null)?.schema_version;
  return typeof value === 'object' && value !== null && typeof version === 'string' && version.startsWith('ATIF');
}

// Keys a producer may put the session's folder under, in the trajectory's or the agent's `extra`;
// ATIF itself has no field for it, and the sample Devin export carries none.
const WORKING_DIRECTORY_KEYS = ['cwd', 'working_directory', 'workdir', 'project_dir'];

function workingDirectory(trajectory: AtifTrajectory): string | undefined {
  for (const extra of [trajectory.extra, trajectory.agent?.extra]) {
    if (typeof extra !== 'object' || extra === null) continue;
    for (const key of WORKING_DIRECTORY_KEYS) {
      const value = (extra as Record<string, unknown>)[key];
      if (typeof value === 'string' && path.isAbsolute(value)) return value;
    }
  }
  return undefined;
}

/** A step's text: ATIF 1.6 and later allow a list of content parts, of which the text parts count. */
function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return '';
  return message
    .map((part) => ((part as { type?: unknown })?.type === 'text' && typeof part.text === 'string' ? (part.text as string) : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function toolCallsOf(step: AtifStep): { name: string; arguments: unknown }[] {
  if (!Array.isArray(step.tool_calls)) return [];
  return step.tool_calls
    .map((call) => ({ name: (call as { function_name?: unknown })?.function_name, arguments: (call as { arguments?: unknown })?.arguments }))
    .filter((call): call is { name: string; arguments: unknown } => typeof call.name === 'string');
}

/**
 * The session an ATIF trajectory holds, or undefined when the builder skips it. Its folder is the
 * one the trajectory states, else the deepest known workspace whose absolute path a prompt, a
 * reply or a tool call's arguments name, else '' (in no project's scope but `all`).
 */
export function readAtifTrajectory(
  trajectory: AtifTrajectory,
  file: string,
  modified: number,
  workspaces: readonly string[],
  context: SourceContext,
): HarvestedSession | undefined {
  const sessionId = typeof trajectory.session_id === 'string' && trajectory.session_id !== '' ? trajectory.session_id : path.basename(file, '.json');
  const builder = context.newSession(sessionId, file);
  if (!Array.isArray(trajectory.steps)) {
    builder.reject('malformed');
    return builder.finish(modified);
  }
  const stated = workingDirectory(trajectory);
  let named: string | undefined;
  const noteWorkspace = (text: string) => {
    if (stated !== undefined || text === '') return;
    const found = deepestWorkspaceIn(text, workspaces);
    if (found !== undefined && (named === undefined || found.length > named.length)) named = found;
  };
  // Only a change of verdict is a new signal: an agent repeating "142 passed" adds nothing.
  const lastVerdict = new Map<VerificationSignal['verifier'], boolean>();

  for (const step of trajectory.steps as AtifStep[]) {
    if (typeof step !== 'object' || step === null) continue;
    const text = messageText(step.message);
    if (step.source === 'user') {
      noteWorkspace(text);
      builder.userPrompt(text, step.timestamp);
    } else if (step.source === 'agent') {
      noteWorkspace(text);
      // Every agent step is a turn, in order: the builder keeps the last of each exchange, which is
      // where the agent reports its test run; the original dropped agent steps beyond the prompts' count.
      builder.assistantTurn(text, step.timestamp);
      for (const call of toolCallsOf(step)) {
        builder.toolCall(call.name);
        noteWorkspace(typeof call.arguments === 'string' ? call.arguments : (JSON.stringify(call.arguments) ?? ''));
      }
      for (const signal of verificationResults(text)) {
        if (lastVerdict.get(signal.verifier) === signal.passed) continue;
        lastVerdict.set(signal.verifier, signal.passed);
        builder.signal(signal);
      }
    } else builder.time(step.timestamp);
  }
  builder.project(stated ?? named);
  return builder.finish(modified);
}
