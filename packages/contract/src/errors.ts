/**
 * One error type for everything that crosses a package boundary. `code` is stable and
 * machine-readable, `category` says whose problem it is, `retryable` whether trying the same
 * thing again may succeed.
 *
 * `instanceof` fails when two copies of this package are installed (one under the CLI, one under
 * a third-party env), so every class is recognised by a registry-wide symbol instead:
 * `SkillOptError.isInstance(error)` and `ProviderError.isInstance(error)` work across copies.
 */

export const ERROR_CATEGORIES = ['user', 'provider', 'internal'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export const ERROR_CODES = {
  /** The configuration is invalid: an unknown key, a wrong type, an unreadable file. */
  configInvalid: 'config-invalid',
  /** An env or backend package named in the config is not installed. */
  packageNotFound: 'package-not-found',
  /** A package exists but is not a usable env or backend package (no manifest, no factory, a throwing import). */
  packageInvalid: 'package-invalid',
  /** A package or an implementation declares a specification version this release does not support. */
  specificationUnsupported: 'specification-unsupported',
  /** Input data (a split, a task item) does not have the expected shape. */
  dataInvalid: 'data-invalid',
  providerRateLimited: 'provider-rate-limited',
  /** The account's quota or credit is spent: waiting does not help, so it is not retried. */
  providerQuotaExceeded: 'provider-quota-exceeded',
  providerUnavailable: 'provider-unavailable',
  providerTimeout: 'provider-timeout',
  providerConnection: 'provider-connection',
  providerAuthentication: 'provider-authentication',
  providerBadRequest: 'provider-bad-request',
  modelNotFound: 'model-not-found',
  /** The model answered, but with nothing usable (empty, refused, or not the requested shape). */
  replyEmpty: 'reply-empty',
  replyRefused: 'reply-refused',
  replyMalformed: 'reply-malformed',
  processCrashed: 'process-crashed',
  processTimeout: 'process-timeout',
  aborted: 'aborted',
  budgetSpent: 'budget-spent',
  /** An evaluation excluded every item, or more than the allowed share, for infrastructure failures: it measured nothing. */
  evaluationExcluded: 'evaluation-excluded',
  /**
   * A request was written out for someone else to answer (the handoff backend): not a failure, not
   * a score — the run stops where it is and resumes once the answers are there.
   */
  answerPending: 'answer-pending',
  /**
   * A sandbox for generated code cannot be set up here (bubblewrap missing, user namespaces off):
   * the caller must not run the code unsandboxed without being told to.
   */
  sandboxUnavailable: 'sandbox-unavailable',
  /**
   * A file a sandboxed run left in its work folder is not one the trusted side reads (a symbolic
   * link, a hard link, a FIFO or device, a directory, too large): it is refused, never followed,
   * and counts as that run's outcome (a failed case, a failed stage).
   */
  workspaceFileRefused: 'workspace-file-refused',
  internal: 'internal',
} as const;
export type KnownErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
export type ErrorCode = KnownErrorCode | (string & {});

export interface SkillOptErrorOptions {
  code: ErrorCode;
  message: string;
  category: ErrorCategory;
  retryable?: boolean;
  cause?: unknown;
  /** Facts for the reader of a report; never secrets. */
  details?: Record<string, unknown>;
}

const markerPrefix = '@skillopt/contract/error/';
const skillOptErrorMarker = Symbol.for(`${markerPrefix}SkillOptError`);
const providerErrorMarker = Symbol.for(`${markerPrefix}ProviderError`);
const answerPendingErrorMarker = Symbol.for(`${markerPrefix}AnswerPendingError`);

function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

export class SkillOptError extends Error {
  readonly code: ErrorCode;
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(options: SkillOptErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillOptError';
    this.code = options.code;
    this.category = options.category;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    Object.defineProperty(this, skillOptErrorMarker, { value: true });
  }

  static isInstance(value: unknown): value is SkillOptError {
    return hasMarker(value, skillOptErrorMarker);
  }

  /** A plain object for JSON artifacts and events. */
  toJSON(): { name: string; code: string; category: ErrorCategory; retryable: boolean; message: string; details?: Record<string, unknown> } {
    return {
      name: this.name,
      code: this.code,
      category: this.category,
      retryable: this.retryable,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export interface ProviderErrorOptions extends Omit<SkillOptErrorOptions, 'category'> {
  /** The provider's name, e.g. `openai`. */
  provider: string;
  /** The HTTP status, when there was a response. */
  status?: number;
  /** How long the provider asked us to wait before trying again (from `retry-after`). */
  retryAfterMs?: number;
  /**
   * How many attempts the backend made before it gave up, when it retried the call itself. The
   * failure is then owned and spent: core excludes the rollout instead of running it again, so
   * retries never multiply across layers (docs/failure-ownership.md).
   */
  attempts?: number;
}

/** A failure of a model provider or agent harness: infrastructure, never a task outcome. */
export class ProviderError extends SkillOptError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number | undefined;

  constructor(options: ProviderErrorOptions) {
    super({ ...options, category: 'provider' });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts;
    Object.defineProperty(this, providerErrorMarker, { value: true });
  }

  static override isInstance(value: unknown): value is ProviderError {
    return hasMarker(value, providerErrorMarker);
  }
}

/**
 * The same provider failure, marked with the attempts the backend made on it (see
 * `ProviderErrorOptions.attempts`); the original error is its `cause`.
 */
export function providerErrorAfterAttempts(error: ProviderError, attempts: number): ProviderError {
  return new ProviderError({
    provider: error.provider,
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.details === undefined ? {} : { details: error.details }),
    attempts,
    cause: error,
  });
}

export interface AnswerPendingErrorOptions {
  /** The ids of the requests that wait for an answer, each once. */
  requestIds: readonly string[];
  /** The folder where they wait (its index file lists them). */
  directory: string;
  /** Answers that were there but could not be used (each naming its file and why); those requests wait again. */
  problems?: readonly string[];
  /** Default: how many requests wait, and where. */
  message?: string;
  details?: Record<string, unknown>;
}

/**
 * Requests wait on disk for an answer from outside the run (the handoff backend's user's agent).
 * It is neither retried nor excluded nor scored: core lets every request it can reach be written,
 * then stops the run resumably; the CLI exits 3 and names where the prompts are.
 */
export class AnswerPendingError extends SkillOptError {
  readonly requestIds: readonly string[];
  readonly directory: string;
  readonly problems: readonly string[];

  constructor(options: AnswerPendingErrorOptions) {
    const requestIds = [...new Set(options.requestIds)];
    const count = requestIds.length;
    super({
      code: ERROR_CODES.answerPending,
      category: 'user',
      message: options.message ?? `${count} request${count === 1 ? '' : 's'} wait${count === 1 ? 's' : ''} for an answer in ${options.directory}`,
      details: { directory: options.directory, requestIds, ...(options.problems?.length ? { problems: [...options.problems] } : {}), ...options.details },
    });
    this.name = 'AnswerPendingError';
    this.requestIds = requestIds;
    this.directory = options.directory;
    this.problems = [...(options.problems ?? [])];
    Object.defineProperty(this, answerPendingErrorMarker, { value: true });
  }

  static override isInstance(value: unknown): value is AnswerPendingError {
    return hasMarker(value, answerPendingErrorMarker);
  }
}
