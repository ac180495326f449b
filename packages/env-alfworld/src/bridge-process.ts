import { ERROR_CODES, ProviderError, SkillOptError } from '@skillopt/contract';
import { OutputTail, type ProcessResult, runProcess } from '@skillopt/runtime-kit';
import { LineQueue } from './line-queue.js';

/** What the game shows after a load or an action. */
export interface GameState {
  observation: string;
  /** The commands the game accepts now, as it lists them. */
  admissible: string[];
  won: boolean;
  done: boolean;
  score: number;
}

export interface LoadGameRequest {
  gamefile: string;
  dataRoot: string;
  seed: number;
  maxSteps: number;
  configFile: string;
}

export interface BridgeProcessOptions {
  python: string;
  scriptPath: string;
  /** Seconds one request (the start, a load, one action) may take before the bridge counts as hung. */
  requestTimeoutMs: number;
  /** Variables set for the bridge on top of the ones it inherits (a PYTHONPATH, say). */
  extraVariables?: Readonly<Record<string, string>>;
}

/** Variables a Python with ALFWorld needs to find itself and its data; nothing else is passed (no API keys). */
const BRIDGE_VARIABLES = ['PATH', 'HOME', 'PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'ALFWORLD_DATA', 'LANG', 'LC_ALL', 'TMPDIR'];

/**
 * The bridge writes no bytecode: an `alfworld` on a PYTHONPATH (a clone, our stand-in) would
 * otherwise get `__pycache__` folders in its source tree from every run. A pip install already
 * has its bytecode, which Python still reads.
 */
const WRITE_NO_BYTECODE = { PYTHONDONTWRITEBYTECODE: '1' };

const PROVIDER = 'alfworld-bridge';
const STDERR_TAIL_BYTES = 4096;

interface PendingRequest {
  id: number;
  what: string;
  resolve: (reply: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * One bridge process: the shipped Python script, started through runtime-kit's process runner
 * with its stdin held open, answering one JSON line per request. A bridge that exits, hangs past
 * the request timeout or writes something that is not a reply fails the request it was on with a
 * retryable ProviderError — an infrastructure failure that core retries and then excludes,
 * never a lost game — and is of no further use.
 */
export class BridgeProcess {
  private readonly requests = new LineQueue();
  private readonly stop = new AbortController();
  private readonly stderr = new OutputTail(STDERR_TAIL_BYTES);
  private readonly exited: Promise<void>;
  private pending: PendingRequest | undefined;
  private nextId = 1;
  private failure: ProviderError | undefined;
  private ready: { resolve: (reply: Record<string, unknown>) => void; reject: (error: unknown) => void } | undefined;

  private constructor(private readonly options: BridgeProcessOptions) {
    this.exited = runProcess({
      command: options.python,
      args: [options.scriptPath],
      stdin: this.requests,
      allowedEnvironmentVariables: BRIDGE_VARIABLES,
      extraEnvironmentVariables: { ...options.extraVariables, ...WRITE_NO_BYTECODE },
      onStdoutLine: (line) => this.receive(line),
      onStderrLine: (line) => this.stderr.push(Buffer.from(`${line}\n`)),
      signal: this.stop.signal,
      provider: PROVIDER,
    }).then(
      (result) => this.fail(this.exitFailure(result)),
      (error: unknown) => this.fail(this.stop.signal.aborted ? (this.failure ?? this.stoppedFailure()) : asProviderError(error)),
    );
  }

  /**
   * Starts a bridge and waits for it to say that `alfworld` imported. A Python without it is a
   * config error naming the install; a bridge that cannot start at all, a crash or a hang is a
   * ProviderError as for any request.
   */
  static async start(options: BridgeProcessOptions): Promise<{ bridge: BridgeProcess; versions: Record<string, unknown> }> {
    const bridge = new BridgeProcess(options);
    const hello = await bridge.awaitReady();
    if (hello.ready !== true) {
      await bridge.kill();
      const error = (hello.error ?? {}) as { type?: string; message?: string };
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `ALFWorld cannot be imported by ${options.python}: ${error.type ?? 'Error'}: ${error.message ?? 'unknown error'}. Install it for that interpreter (${options.python} -m pip install alfworld, then alfworld-download for the data), or set env.python to the Python that has it.`,
        details: { python: options.python },
      });
    }
    return { bridge, versions: hello };
  }

  /** Loads a game and returns its opening state. */
  async load(request: LoadGameRequest): Promise<GameState> {
    const reply = await this.send(
      { op: 'load', gamefile: request.gamefile, data_root: request.dataRoot, seed: request.seed, max_steps: request.maxSteps, config_file: request.configFile },
      `loading ${request.gamefile}`,
    );
    return gameStateOf(reply);
  }

  /** Sends one action to the loaded game. */
  async step(action: string): Promise<GameState> {
    return gameStateOf(await this.send({ op: 'step', action }, `the action "${action}"`));
  }

  /** Whether the process is still running and has failed nothing. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Asks the bridge to exit, and makes sure it has: a bridge that does not answer is killed. */
  async close(): Promise<void> {
    if (this.usable) {
      try {
        await this.send({ op: 'close' }, 'closing');
      } catch {
        // It is being stopped either way.
      }
    }
    this.requests.end();
    await this.kill();
  }

  /** Stops the process group now. */
  async kill(): Promise<void> {
    if (this.failure === undefined) this.failure = this.stoppedFailure();
    this.requests.end();
    this.stop.abort();
    await this.exited;
  }

  private awaitReady(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.hang('starting'), this.options.requestTimeoutMs);
      this.ready = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      if (this.failure !== undefined) this.ready.reject(this.failure);
    });
  }

  private send(message: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.pending !== undefined) return Promise.reject(new Error(`the ALFWorld bridge is busy with ${this.pending.what}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.hang(what), this.options.requestTimeoutMs);
      this.pending = { id, what, resolve, reject, timer };
      this.requests.push(`${JSON.stringify({ id, ...message })}\n`);
    }).then((reply) => {
      const problem = reply as { ok?: unknown; error?: { type?: string; message?: string } };
      if (problem.ok === true) return reply as Record<string, unknown>;
      const failure = this.requestFailure(what, `${problem.error?.type ?? 'Error'}: ${problem.error?.message ?? 'no reason given'}`, 'failed');
      // A game engine that raised is in an unknown state: the bridge is not used again.
      void this.kill();
      throw failure;
    });
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let reply: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      reply = parsed as Record<string, unknown>;
    } catch {
      this.fail(
        this.requestFailure(
          this.pending?.what ?? 'starting',
          `it wrote a line that is not a reply: ${JSON.stringify(line.slice(0, 200))}`,
          'broke the protocol',
        ),
      );
      this.stop.abort();
      return;
    }
    if (this.ready !== undefined) {
      const ready = this.ready;
      this.ready = undefined;
      ready.resolve(reply);
      return;
    }
    const pending = this.pending;
    if (pending === undefined || reply.id !== pending.id) {
      this.fail(
        this.requestFailure(
          pending?.what ?? 'idle',
          `it answered request ${String(reply.id)} while ${pending === undefined ? 'none' : `${pending.id}`} was open`,
          'broke the protocol',
        ),
      );
      this.stop.abort();
      return;
    }
    clearTimeout(pending.timer);
    this.pending = undefined;
    pending.resolve(reply);
  }

  private hang(what: string): void {
    this.fail(
      new ProviderError({
        code: ERROR_CODES.processTimeout,
        provider: PROVIDER,
        retryable: true,
        message: `the ALFWorld bridge did not answer within ${Math.round(this.options.requestTimeoutMs / 1000)} s while ${what}, so it was stopped${this.stderrNote()}`,
      }),
    );
    this.stop.abort();
  }

  /** Records the first failure and fails whatever was waiting on the bridge with it. */
  private fail(error: ProviderError): void {
    this.failure ??= error;
    const failure = this.failure;
    this.requests.end();
    if (this.ready !== undefined) {
      const ready = this.ready;
      this.ready = undefined;
      ready.reject(failure);
    }
    const pending = this.pending;
    if (pending !== undefined) {
      this.pending = undefined;
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
  }

  private requestFailure(what: string, reason: string, verb: string): ProviderError {
    return new ProviderError({
      code: ERROR_CODES.processCrashed,
      provider: PROVIDER,
      retryable: true,
      message: `the ALFWorld bridge ${verb} while ${what}: ${reason}${this.stderrNote()}`,
    });
  }

  private exitFailure(result: ProcessResult): ProviderError {
    const how = result.signal === null ? `exited with code ${String(result.exitCode)}` : `was killed by ${result.signal}`;
    return this.requestFailure(this.pending?.what ?? (this.ready === undefined ? 'idle' : 'starting'), how, 'stopped');
  }

  private stoppedFailure(): ProviderError {
    return new ProviderError({ code: ERROR_CODES.processCrashed, provider: PROVIDER, retryable: true, message: 'the ALFWorld bridge was stopped' });
  }

  private stderrNote(): string {
    const text = this.stderr.text().trim();
    return text === '' ? '' : `; its last output: ${text.slice(-800)}`;
  }
}

function asProviderError(error: unknown): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  return new ProviderError({
    code: ERROR_CODES.processCrashed,
    provider: PROVIDER,
    retryable: true,
    message: `the ALFWorld bridge failed: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}

function gameStateOf(reply: Record<string, unknown>): GameState {
  const { observation, admissible, won, done, score } = reply;
  if (typeof observation !== 'string' || !Array.isArray(admissible) || admissible.some((command) => typeof command !== 'string')) {
    throw new ProviderError({
      code: ERROR_CODES.processCrashed,
      provider: PROVIDER,
      retryable: true,
      message: 'the ALFWorld bridge answered without an observation or its admissible commands',
    });
  }
  return { observation, admissible: admissible as string[], won: won === true, done: done === true, score: typeof score === 'number' ? score : 0 };
}
