import type { AgentRunRequest, ErrorCode, ModelCapabilities, TranscriptEvent, Usage } from '@skillopt/contract';
import type { Sandbox } from '@skillopt/runtime-kit';
import type { RateLimiter } from './rate-limiter.js';

/**
 * What a CLI harness package supplies to the agent-run flow (`runAgentHarness`): its command line
 * and environment, where it reads skills, and how to read its transcript. Everything else — the
 * request's files, the process with its limits, failure mapping, usage, the kept transcript — is
 * the flow's, the same for every harness.
 */
export interface HarnessDefinition {
  /** The runner's provider, e.g. `codex`, `claude-code`. */
  readonly provider: string;
  /** The model the harness is told to use, as the ledger and the price table name it. */
  readonly modelId: string;
  readonly capabilities?: ModelCapabilities;
  /** Where this harness reads its skill. */
  readonly skillInstallation: SkillInstallation;
  /** The command line of one run. */
  commandLine(context: HarnessRunContext): HarnessCommandLine | Promise<HarnessCommandLine>;
  /** A fresh reader of one run's transcript: its JSONL records in, the answer and usage out. */
  readTranscript(): TranscriptTranslation;
  /** The most bytes kept of stdout and of stderr while it runs (their tails). Default 10 MiB. */
  readonly maxOutputBytes?: number;
  /** The most bytes of transcript kept in the result (its start and its end). Default 1 MiB. */
  readonly maxTranscriptBytes?: number;
  /** SIGTERM-to-SIGKILL time at the wall-clock limit, for CLIs that flush on SIGTERM. Default 5 s. */
  readonly terminationGraceMs?: number;
  /** The limiter of the harness's provider scope (see `processRateLimiters`); runs wait for it. */
  readonly rateLimiter?: RateLimiter;
  /**
   * Whether the command line honours a request's `allowedCommands`: maps them onto the harness's
   * own permission rules, or runs every command in a sandbox of the harness's that the list would
   * not narrow further (say which in the package's docs). Absent or false: a run that names
   * commands gets an `unsupported-setting` warning, since its agent's shell runs anything.
   */
  readonly limitsCommands?: boolean;
  /** Where a run that asks for `isolation: 'sandbox'` goes. Default: this process's one bubblewrap sandbox for agent CLIs, created on first use. */
  readonly sandbox?: () => Promise<Sandbox>;
}

/** What the command line of one run may depend on. */
export interface HarnessRunContext {
  /** The request as read (fields the contract does not know left out). */
  readonly request: AgentRunRequest;
  /** The workspace, where the files and the skill already are. */
  readonly workspace: string;
  /** The workspace-relative paths the skill installation wrote. */
  readonly skillFiles: readonly string[];
}

/** How to start the harness for one run. The prompt goes to its stdin. */
export interface HarnessCommandLine {
  command: string;
  args: readonly string[];
  /** Its stdin; default the request's prompt. */
  stdin?: string;
  /** The variables it inherits from this process; nothing else reaches it. Default `['PATH', 'HOME']`. */
  allowedEnvironmentVariables?: readonly string[];
  /** Variables set for it on top (its API key, its config directory). */
  environment?: Readonly<Record<string, string>>;
  /**
   * Values cut out of every error and of the kept transcript, besides those of `environment`
   * entries whose names say they are secrets (`…_API_KEY`, `…_TOKEN`).
   */
  secrets?: readonly string[];
  /** Exit codes that mean "finished"; default `[0]`. */
  successExitCodes?: readonly number[];
  /**
   * Folders the harness keeps its state in (its config folder, its sessions): in a sandboxed run
   * the only places besides the workspace it can write, and the only ones of the host it sees
   * besides its install. A HOME among `environment` must be one of them; without one, a sandboxed
   * run gets a private empty HOME.
   */
  statePaths?: readonly string[];
}

/** A per-harness strategy: puts the skill where that harness reads skills. */
export interface SkillInstallation {
  /** Writes `skill` into `workspace`; returns the workspace-relative paths written. */
  install(skill: string, workspace: string): Promise<readonly string[]>;
}

/** Reads one run's transcript, a record at a time, as the harness prints it. */
export interface TranscriptTranslation {
  /** Each JSON object the harness printed on stdout, in order. */
  readEvent(event: TranscriptEvent): void;
  /** Called once the harness has ended. */
  finish(): TranscriptOutcome;
}

/** What a transcript says about its run. */
export interface TranscriptOutcome {
  /** The agent's final answer; absent or blank is no answer. */
  finalText?: string;
  /** Token counts as the harness reported them; absent: the flow estimates them and marks them so. */
  usage?: Usage;
  /** An error the harness reported (an expired login, an unknown model), which explains its exit. */
  failure?: HarnessReportedFailure;
}

export interface HarnessReportedFailure {
  message: string;
  /** Default `process-crashed`. */
  code?: ErrorCode;
  /** Default true: a run that failed is an infrastructure failure, worth another attempt, unless the harness says otherwise. */
  retryable?: boolean;
}
