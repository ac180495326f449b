import { type AnswerPendingError, SkillOptError } from '@skillopt/contract';
import { answerPendingStop, nearestWord } from '@skillopt/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CallToolResult, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { runSleepCommandLine } from '../command-line/sleep-command-line.js';
import type { SleepActionName } from '../command-line/sleep-actions.js';
import type { NightStage, NightStageEvent, NightStageListener } from '../night/night-stages.js';
import { sleepPackageRoot, sleepPackageVersion } from '../package-root.js';
import { SLEEP_MCP_RUNTIMES, type SleepMcpRuntime, type SleepTool, SleepToolArgumentsError, sleepTools, toolCommandLine } from './sleep-tools.js';

/**
 * What the server is connected to: a transport of the MCP SDK (StdioServerTransport,
 * InMemoryTransport, StreamableHTTPServerTransport, …), by the methods the caller's side needs.
 */
export interface SleepMcpTransport {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's `Server`, as createSleepMcpServer returns it: connect it to a transport, close it.
 * Named here by what a caller uses rather than by the SDK's class, whose declarations need the
 * DOM's fetch types (`HeadersInit`) that a Node project without them does not have.
 */
export interface SleepMcpServer {
  connect(transport: SleepMcpTransport): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

export interface SleepMcpServerOptions {
  /** The agent runtime that starts the server: its sessions are the ones a night reads by default. */
  runtime: SleepMcpRuntime;
  /**
   * Where the defaults are found: Sleep's state folder (SKILLOPT_SLEEP_HOME, else HOME), the
   * sources' folders, the crontab program (PATH); default this process's environment. Backends
   * read their API keys from the process's environment whatever this says.
   */
  environment?: Record<string, string | undefined>;
  /** The folder a call's `project` defaults to, and relative paths are read from; default the process's working folder. */
  workingDirectory?: string;
}

/**
 * How a call ended, in `structuredContent.status`: `ok` (exit 0), `failed` (exit 1: a night that
 * was refused, stopped by its budget or failed, or a harvest or mining that failed),
 * `usage_error` (exit 2: a problem the engine found in what the call asked for — a file that is
 * not there, a backend not installed, nothing staged to adopt), `answers_pending` (exit 3: the
 * handoff backend's requests wait for answers in a folder; not an error).
 */
export type SleepCallStatus = 'ok' | 'failed' | 'usage_error' | 'answers_pending';

const STATUS_OF_EXIT_CODE: Readonly<Record<number, SleepCallStatus>> = { 0: 'ok', 1: 'failed', 2: 'usage_error', 3: 'answers_pending' };

/** The stages whose progress each action reports, in order; the others end quickly and report none. */
const STAGE_PLANS: Partial<Record<SleepActionName, readonly NightStage[]>> = {
  harvest: ['harvest'],
  mine: ['harvest', 'mine'],
  'dry-run': ['replay', 'consolidate', 'report'],
  run: ['harvest', 'mine', 'replay', 'consolidate', 'stage'],
};

/**
 * A JSON-RPC error to answer a request with: the SDK sends its `code`, `message` and `data` as
 * they are (its own McpError would put "MCP error <code>: " before the message, which the
 * client's McpError then does again).
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

const PROGRESS_STEP = 0.001;

function rounded(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * A stage listener that reports each stage as MCP progress: `total` is the number of stages the
 * action goes through, `progress` the stage reached (from 0) and how far into it. A night that
 * learns for several skills splits the replay and consolidate stages between them, in turn.
 * Progress only ever grows, as MCP requires: a report that would not move it is moved by a
 * thousandth within its stage, or left out.
 */
function progressListener(plan: readonly NightStage[], send: (progress: number, total: number, message: string) => void): NightStageListener {
  let last = -1;
  const replay = plan.indexOf('replay');
  return (event: NightStageEvent) => {
    const index = plan.indexOf(event.stage);
    if (index < 0) return;
    let start: number;
    let end: number;
    if ((event.stage === 'replay' || event.stage === 'consolidate') && replay >= 0) {
      // Each skill's replay and consolidate share the two stages' span, one skill after the other.
      const count = event.skill?.count ?? 1;
      const half = (event.skill?.index ?? 0) * 2 + (event.stage === 'consolidate' ? 1 : 0);
      start = replay + half / count;
      end = replay + (half + 1) / count;
    } else {
      start = index;
      end = index + 1;
    }
    let progress = rounded(start + (event.fraction ?? 0) * (end - start));
    if (progress <= last) progress = rounded(last + PROGRESS_STEP);
    if (progress > end - PROGRESS_STEP) return;
    last = progress;
    const skill = event.skill !== undefined && event.skill.count > 1 ? ` (${event.skill.name})` : '';
    send(progress, plan.length, `${event.stage}${skill}: ${event.message}`);
  };
}

/** A thrown error as the command line's `--json` error object. */
function errorObject(error: unknown, exitCode: number): Record<string, unknown> {
  if (SkillOptError.isInstance(error))
    return {
      code: error.code,
      category: error.category,
      message: error.message,
      exitCode,
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  return { code: 'internal', category: 'internal', message: error instanceof Error ? error.message : String(error), exitCode };
}

function textResult(text: string, structuredContent: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent, ...(isError ? { isError: true } : {}) };
}

interface CallContext {
  options: SleepMcpServerOptions;
  signal: AbortSignal;
  /** Sends one progress notification, when the call asked for them. */
  progress?: ((progress: number, total: number, message: string) => void) | undefined;
}

/**
 * One call: its command line run in this process by the code the `skillopt-sleep` bin runs, with
 * --json; the result line it prints becomes `structuredContent` (with `exitCode`, `status` and
 * the `argv` run), the summary it prints without --json the text.
 */
async function callTool(tool: SleepTool, argv: readonly string[], context: CallContext): Promise<CallToolResult> {
  let resultLine: Record<string, unknown> | undefined;
  let summary = '';
  let errorText = '';
  let stop: AnswerPendingError | undefined;
  const plan = STAGE_PLANS[tool.action];
  const workingDirectory = context.options.workingDirectory ?? process.cwd();
  let exitCode: number;
  let thrown: unknown;
  try {
    exitCode = await runSleepCommandLine(argv, {
      // Only the result line is kept: `harvest --json` prints each session before it.
      write: (text) => {
        for (const line of text.split('\n')) if (line.startsWith('{"type":"result"')) resultLine = JSON.parse(line) as Record<string, unknown>;
      },
      writeError: (text) => {
        errorText += text;
      },
      writeSummary: (text) => {
        summary += text;
      },
      onAnswersPending: (error) => {
        stop = error;
      },
      workingDirectory,
      fallbackDirectories: [sleepPackageRoot()],
      ...(context.options.environment === undefined ? {} : { environment: context.options.environment }),
      signal: context.signal,
      ...(context.progress === undefined || plan === undefined ? {} : { onStage: progressListener(plan, context.progress) }),
    });
  } catch (error) {
    thrown = error;
    exitCode = SkillOptError.isInstance(error) && error.category === 'user' ? 2 : 1;
  }
  const status = STATUS_OF_EXIT_CODE[exitCode] ?? 'failed';
  const facts = { exitCode, status, argv: [...argv] };
  if (stop !== undefined) {
    const told = answerPendingStop(
      stop,
      `Answer each request in its answer file, then call ${tool.name} again with the same arguments: the answers written are reused, so each call gets further, until one finishes.`,
    );
    return textResult(
      told.message,
      { type: 'answers-pending', directory: stop.directory, requestIds: [...stop.requestIds], problems: [...stop.problems], message: told.message, ...facts },
      false,
    );
  }
  if (thrown !== undefined) {
    const error = errorObject(thrown, exitCode);
    return textResult(String(error.message), { type: 'error', error, ...facts }, true);
  }
  const warnings = errorText.trim() === '' ? '' : `\n${errorText.trimEnd()}\n`;
  return textResult(`${summary.trimEnd()}\n${warnings}`, { ...resultLine, ...facts }, exitCode !== 0);
}

const INSTRUCTIONS = (runtime: SleepMcpRuntime) =>
  `SkillOpt-Sleep learns rules for your skill documents from the sessions you already had with ${runtime === 'devin' ? 'Devin' : 'GitHub Copilot'}. ` +
  'sleep_status shows the nights so far and the proposals waiting; sleep_harvest and sleep_mine show what a night would learn from; ' +
  'sleep_dry_run runs a night and stages nothing; sleep_run runs one and stages a proposal for review (it never writes a live document); ' +
  'sleep_adopt writes a reviewed proposal (undo: true puts it back); sleep_schedule and sleep_unschedule manage the nightly run. ' +
  "The project is the server's working folder unless a call names `project`.";

interface BuiltServer {
  server: Server;
  /** Resolves once every call under way has ended. */
  settled(): Promise<void>;
}

function buildSleepMcpServer(options: SleepMcpServerOptions): BuiltServer {
  if (!(SLEEP_MCP_RUNTIMES as readonly string[]).includes(options.runtime))
    throw new TypeError(`runtime is one of ${SLEEP_MCP_RUNTIMES.join(', ')}, got ${JSON.stringify(options.runtime)}`);
  const tools = sleepTools(options.runtime);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // The SDK's low-level Server, not McpServer: McpServer answers every failure of a call, invalid
  // arguments and unknown tools included, with an isError tool result, where these are JSON-RPC
  // InvalidParams errors; and the schemas here are JSON Schema made from the definitions, not zod.
  const server = new Server(
    { name: 'skillopt-sleep', title: 'SkillOpt-Sleep', version: sleepPackageVersion() },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS(options.runtime) },
  );
  const running = new Set<Promise<unknown>>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: given } = request.params;
    const tool = byName.get(name);
    if (tool === undefined) {
      const nearest = nearestWord(name, byName.keys());
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Unknown tool "${name}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} The tools are ${[...byName.keys()].join(', ')}.`,
      );
    }
    let argv: string[];
    try {
      argv = toolCommandLine(tool, given, options.runtime);
    } catch (error) {
      if (error instanceof SleepToolArgumentsError)
        throw new JsonRpcError(ErrorCode.InvalidParams, error.message, { tool: error.tool, problems: error.problems });
      throw error;
    }
    const progressToken = request.params._meta?.progressToken;
    const notifications: Promise<void>[] = [];
    const call = callTool(tool, argv, {
      options,
      signal: extra.signal,
      progress:
        progressToken === undefined
          ? undefined
          : (progress, total, message) =>
              notifications.push(
                extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } }).catch(() => undefined),
              ),
    });
    running.add(call);
    try {
      const result = await call;
      await Promise.all(notifications);
      return result;
    } finally {
      running.delete(call);
    }
  });

  return {
    server,
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * The MCP server of SkillOpt-Sleep, for `runtime`'s agent, not connected yet: one tool per
 * `skillopt-sleep` action (sleep_harvest, sleep_mine, sleep_dry_run, sleep_run, sleep_status,
 * sleep_adopt, sleep_schedule, sleep_unschedule), their input schemas made from the command's
 * definitions. A call runs the action in this process, as the bin would with --json.
 */
export function createSleepMcpServer(options: SleepMcpServerOptions): SleepMcpServer {
  return buildSleepMcpServer(options).server;
}

/**
 * The server on this process's stdin and stdout, until the client disconnects (stdin ends) or
 * the process is told to stop (SIGINT, SIGTERM): calls under way are then cancelled, and it
 * resolves once they have ended. What a plugin's MCP bin runs.
 */
export async function runSleepMcpServer(options: SleepMcpServerOptions): Promise<void> {
  const { server, settled } = buildSleepMcpServer(options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const close = () => {
    void server.close();
  };
  process.stdin.once('end', close);
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  try {
    await server.connect(new StdioServerTransport());
    await closed;
    await settled();
  } finally {
    process.stdin.off('end', close);
    process.off('SIGINT', close);
    process.off('SIGTERM', close);
  }
}
