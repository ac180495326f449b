import assert from 'node:assert/strict';
import {
  isSupportedSpecificationVersion,
  modelCapabilitiesSchema,
  ProviderError,
  SkillOptError,
  usageSchema,
  type CallWarning,
  type ContractInterface,
  type Usage,
} from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';

/**
 * What every check of the backend conformance suite is given: a secret the implementation under
 * test must be configured with (no error may ever contain it), and a way to release what a
 * factory started (a server, a temporary directory) once the check is over.
 */
export interface ConformanceContext {
  /** The credential to configure (an API key in the model's or harness's environment). */
  readonly secret: string;
  /** Registers work to do when the check ends, passed or failed. */
  cleanUp(task: () => void | Promise<void>): void;
}

/** A fresh context for one check, and the function that runs its clean-ups. */
export function createConformanceContext(secret: string): { context: ConformanceContext; finish(): Promise<void> } {
  const tasks: Array<() => void | Promise<void>> = [];
  return {
    context: { secret, cleanUp: (task) => void tasks.push(task) },
    async finish() {
      for (const task of tasks.reverse()) await task();
    },
  };
}

/** A secret shaped like a real provider key, so the contract's generic redaction would catch it too. */
export function conformanceSecret(): string {
  return `sk-conformance-${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`;
}

export function describeError(error: unknown): string {
  if (SkillOptError.isInstance(error)) return `${error.name} ${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Fails unless `error`, in every form it can be written in, leaves out `secret`. */
export function assertNoSecret(error: unknown, secret: string, situation: string): void {
  const forms = [String(error), error instanceof Error ? (error.stack ?? '') : ''];
  if (SkillOptError.isInstance(error)) forms.push(JSON.stringify(error.toJSON()));
  for (const form of forms)
    assert.ok(!form.includes(secret), `${situation}: the error text contains the credential: ${describeError(error).split(secret).join('<the secret>')}`);
}

type Settled<T> = { status: 'resolved'; value: T; afterMs: number } | { status: 'rejected'; reason: unknown; afterMs: number } | { status: 'pending' };

/** How `promise` settled within `limitMs`, and how long it took; `pending` when it did not. */
async function settleWithin<T>(promise: Promise<T>, limitMs: number): Promise<Settled<T>> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    promise.then(
      (value): Settled<T> => ({ status: 'resolved', value, afterMs: Date.now() - started }),
      (reason: unknown): Settled<T> => ({ status: 'rejected', reason, afterMs: Date.now() - started }),
    ),
    new Promise<Settled<T>>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'pending' }), limitMs);
    }),
  ]);
  clearTimeout(timer);
  // A promise still pending is left to its fate; its later rejection must not be reported as unhandled.
  if (outcome.status === 'pending') promise.catch(() => undefined);
  return outcome;
}

/** The rejection of `promise` within `limitMs`; fails when it resolves or takes longer. */
export async function rejectionWithin(promise: Promise<unknown>, limitMs: number, situation: string): Promise<unknown> {
  const outcome = await settleWithin(promise, limitMs);
  if (outcome.status === 'pending') assert.fail(`${situation}: still pending after ${limitMs} ms`);
  if (outcome.status === 'resolved') assert.fail(`${situation}: it answered (${JSON.stringify(outcome.value).slice(0, 200)}) instead of failing`);
  return outcome.reason;
}

/** Fails unless `error` is a retryable ProviderError (with one of `codes`, when given). */
export function assertRetryableProviderError(error: unknown, situation: string, codes?: readonly string[]): ProviderError {
  assert.ok(ProviderError.isInstance(error), `${situation}: expected a retryable ProviderError, got ${describeError(error)}`);
  assert.equal(
    error.retryable,
    true,
    `${situation}: the ProviderError must be retryable (an infrastructure failure, not an answer), got ${describeError(error)}`,
  );
  if (codes) assert.ok(codes.includes(error.code), `${situation}: expected code ${codes.join(' or ')}, got ${describeError(error)}`);
  return error;
}

/** Fails unless the object declares a supported specification version, a provider, a model and valid capabilities. */
export function assertDeclarations(
  implementation: { specificationVersion?: unknown; provider?: unknown; modelId?: unknown; capabilities?: unknown; defaultConcurrency?: unknown },
  contractInterface: ContractInterface,
): void {
  assert.ok(
    isSupportedSpecificationVersion(contractInterface, implementation.specificationVersion),
    `specificationVersion must be a version of ${contractInterface} this contract defines, got ${String(implementation.specificationVersion)}`,
  );
  for (const field of ['provider', 'modelId'] as const)
    assert.ok(
      typeof implementation[field] === 'string' && implementation[field] !== '',
      `${field} must be a non-empty string, got ${String(implementation[field])}`,
    );
  assert.ok(implementation.capabilities !== undefined, 'capabilities must be declared, so an env can refuse a target that lacks what it needs');
  const parsed = modelCapabilitiesSchema.safeParse(implementation.capabilities);
  assert.ok(parsed.success, `capabilities are not valid: ${parsed.success ? '' : formatZodIssues(parsed.error)}`);
  const { defaultConcurrency } = implementation;
  assert.ok(
    defaultConcurrency === undefined || (Number.isInteger(defaultConcurrency) && (defaultConcurrency as number) >= 1),
    `defaultConcurrency must be a whole number of at least 1 when declared, got ${String(defaultConcurrency)}`,
  );
}

/** Fails unless `usage` is valid, and marked estimated when the implementation says it reports none. */
export function assertUsage(usage: Usage, reportedUsage: boolean | undefined, situation: string): void {
  const parsed = usageSchema.safeParse(usage);
  assert.ok(parsed.success, `${situation}: usage is not valid: ${parsed.success ? '' : formatZodIssues(parsed.error)}`);
  if (reportedUsage === false) assert.equal(usage.estimated, true, `${situation}: capabilities say reportedUsage is false, so usage must be marked estimated`);
}

/** A structural zod schema: what the result checks need of the contract's result schemas. */
interface ResultSchema<Result> {
  safeParse(
    value: unknown,
  ): { success: true; data: Result } | { success: false; error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/**
 * The result of a call that must succeed, checked against the contract's schema of that result:
 * a rejection fails the check (after making sure its text holds no secret), and so does a result
 * of the wrong shape.
 */
export async function validResultOf<Result>(
  call: () => Promise<unknown>,
  schema: ResultSchema<Result>,
  resultName: string,
  context: ConformanceContext,
  situation: string,
): Promise<Result> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    assertNoSecret(error, context.secret, situation);
    assert.fail(`${situation}: the call rejected: ${describeError(error)}`);
  }
  const parsed = schema.safeParse(result);
  if (!parsed.success) assert.fail(`${situation}: the result is not a valid ${resultName}: ${formatZodIssues(parsed.error)}`);
  return parsed.data;
}

/** The name of the request field the suite adds to check that unknown fields become warnings. */
export const PROBE_FIELD = 'conformanceProbeField';

export function assertProbeWarning(warnings: readonly CallWarning[] | undefined, situation: string): void {
  assert.ok(
    warnings?.some((warning) => warning.type === 'unknown-field' && warning.field === PROBE_FIELD),
    `${situation}: a request field the contract does not know (${PROBE_FIELD}) must be reported as an unknown-field warning, got ${JSON.stringify(warnings ?? [])}`,
  );
}
