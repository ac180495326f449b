import { ERROR_CODES, MODEL_ROLES, SkillOptError, type ModelRole } from '@skillopt/contract';
import type { LedgerTotals, UsageTotals } from './usage-totals.js';

/**
 * Spending limits. Each role (and the run as a whole, `total`) may cap its calls, its tokens
 * (input + output) and its cost in US dollars; the run as a whole may also cap its wall time. A
 * limit is spent once usage reaches it.
 *
 * Budgets are checked between steps: the trainer calls `assertWithinBudget()` before starting a
 * step, so a run stops at a step boundary, commits nothing half-done and resumes cleanly with a
 * raised limit. A step in progress may therefore overshoot a limit by up to one step's spend;
 * `estimateRunCalls` tells the user beforehand what a step costs in calls. A run of one step (a
 * Sleep night) checks before every call instead (`budget.stop_mid_step`).
 */
export interface BudgetLimits {
  maxCalls?: number;
  maxTokens?: number;
  maxUsd?: number;
  /** Seconds since the ledger was opened: this session of the run (a resumed run's clock starts again). Only in `total`. */
  maxWallSeconds?: number;
}

export const BUDGET_SCOPES = [...MODEL_ROLES, 'total'] as const;
export type BudgetScope = ModelRole | 'total';
export type Budgets = Partial<Record<BudgetScope, BudgetLimits>>;
export type BudgetLimitName = keyof BudgetLimits;

export interface BudgetLimitStatus {
  scope: BudgetScope;
  limit: BudgetLimitName;
  max: number;
  used: number;
  remaining: number;
  spent: boolean;
  /**
   * For maxUsd: calls of models without a price are not in `used`, so the real spend may be
   * higher. Their number is given so the user can decide whether to trust the limit.
   */
  unpricedCalls: number;
}

export interface BudgetStatus {
  /** True when any limit is spent. */
  spent: boolean;
  limits: BudgetLimitStatus[];
  spentLimits: BudgetLimitStatus[];
}

export interface BudgetMessageOptions {
  /** The config key that sets a limit, for the "raise it" hint; default `budget.<scope>.max_calls|max_tokens|max_usd|max_wall_seconds`. */
  configKeyOf?: (scope: BudgetScope, limit: BudgetLimitName) => string;
  /** The command that resumes this run, e.g. `skillopt train --resume runs/searchqa-1`. */
  resumeCommand?: string;
}

const LIMIT_NAMES: readonly BudgetLimitName[] = ['maxCalls', 'maxTokens', 'maxUsd', 'maxWallSeconds'];

export function defaultBudgetConfigKey(scope: BudgetScope, limit: BudgetLimitName): string {
  const snake = { maxCalls: 'max_calls', maxTokens: 'max_tokens', maxUsd: 'max_usd', maxWallSeconds: 'max_wall_seconds' }[limit];
  return `budget.${scope}.${snake}`;
}

/** Checks budgets for sanity: every limit a finite number of at least 0, counts whole. */
export function validateBudgets(budgets: Budgets): void {
  for (const [scope, limits] of Object.entries(budgets)) {
    if (!(BUDGET_SCOPES as readonly string[]).includes(scope))
      throw budgetConfigError(`Unknown budget scope "${scope}"; expected one of ${BUDGET_SCOPES.join(', ')}`);
    for (const [limit, value] of Object.entries(limits ?? {})) {
      if (!(LIMIT_NAMES as readonly string[]).includes(limit))
        throw budgetConfigError(`Unknown budget limit "${scope}.${limit}"; expected one of ${LIMIT_NAMES.join(', ')}`);
      if (value === undefined) continue;
      if (limit === 'maxWallSeconds' && scope !== 'total')
        throw budgetConfigError(`Budget ${scope}.maxWallSeconds: wall time is the run's as a whole, set it as total.maxWallSeconds`);
      const whole = limit !== 'maxUsd' && limit !== 'maxWallSeconds';
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (whole && !Number.isInteger(value)))
        throw budgetConfigError(`Budget ${scope}.${limit} must be ${whole ? 'a whole number' : 'a number'} of at least 0, got ${String(value)}`);
    }
  }
}

/** What the ledger knows beside its finished entries, for computeBudgetStatus. */
export interface BudgetClock {
  /** Seconds this session of the run has taken, for `maxWallSeconds`. */
  wallSeconds?: number;
  /** Calls started and not yet finished, by role: they count against `maxCalls` (their tokens and cost are not known yet). */
  callsInFlight?: Partial<Record<ModelRole, number>>;
}

/** The status of every configured limit against the ledger's totals, the calls in flight and the seconds the run has taken. */
export function computeBudgetStatus(
  budgets: Budgets,
  totals: LedgerTotals,
  scopes: readonly BudgetScope[] = BUDGET_SCOPES,
  clock: BudgetClock = {},
): BudgetStatus {
  const limits: BudgetLimitStatus[] = [];
  const inFlight = clock.callsInFlight ?? {};
  for (const scope of scopes) {
    const scopeLimits = budgets[scope];
    if (scopeLimits === undefined) continue;
    const usage = scope === 'total' ? totals.overall : totals.byRole[scope];
    const callsInFlight = scope === 'total' ? Object.values(inFlight).reduce((sum, count) => sum + (count ?? 0), 0) : (inFlight[scope] ?? 0);
    for (const limit of LIMIT_NAMES) {
      const max = scopeLimits[limit];
      if (max === undefined) continue;
      const used = limit === 'maxWallSeconds' ? (clock.wallSeconds ?? 0) : usedAgainst(limit, usage) + (limit === 'maxCalls' ? callsInFlight : 0);
      limits.push({
        scope,
        limit,
        max,
        used,
        remaining: Math.max(0, max - used),
        spent: used >= max,
        unpricedCalls: limit === 'maxUsd' ? (usage?.unpricedCalls ?? 0) : 0,
      });
    }
  }
  const spentLimits = limits.filter((status) => status.spent);
  return { spent: spentLimits.length > 0, limits, spentLimits };
}

function usedAgainst(limit: Exclude<BudgetLimitName, 'maxWallSeconds'>, usage: UsageTotals | undefined): number {
  if (usage === undefined) return 0;
  if (limit === 'maxCalls') return usage.calls;
  if (limit === 'maxTokens') return usage.inputTokens + usage.outputTokens;
  return usage.costUsd;
}

/**
 * The error that ends a run whose budget is spent: not retryable (the same call would be refused
 * again), a user matter (the user set the limit), naming what was spent and how to continue.
 */
export function budgetSpentError(spentLimits: readonly BudgetLimitStatus[], options: BudgetMessageOptions = {}): SkillOptError {
  const configKeyOf = options.configKeyOf ?? defaultBudgetConfigKey;
  const first = spentLimits[0];
  if (first === undefined) throw new TypeError('budgetSpentError needs at least one spent limit');
  const descriptions = spentLimits.map((status) => {
    const scopeText = status.scope === 'total' ? 'The total budget' : `The ${status.scope} budget`;
    const unpriced =
      status.unpricedCalls === 0
        ? ''
        : status.unpricedCalls === 1
          ? ' (1 call to a model without a price is not counted)'
          : ` (${status.unpricedCalls} calls to models without a price are not counted)`;
    const used = status.limit === 'maxUsd' ? formatAmount(status.limit, status.used) : Math.round(status.used).toLocaleString('en-US');
    return `${scopeText} is spent: ${used} of ${formatAmount(status.limit, status.max)} used (${configKeyOf(status.scope, status.limit)})${unpriced}.`;
  });
  const raises = spentLimits.map((status) => `--set ${configKeyOf(status.scope, status.limit)}=${suggestedLimit(status)}`).join(' ');
  const resume = options.resumeCommand ?? 'skillopt train --resume <run directory>';
  return new SkillOptError({
    code: ERROR_CODES.budgetSpent,
    category: 'user',
    retryable: false,
    message: `${descriptions.join(' ')} The run stopped in a resumable state; nothing committed is lost. To continue, raise the limit and resume: ${resume} ${raises}`,
    details: {
      role: first.scope,
      limit: first.limit,
      max: first.max,
      used: first.used,
      configKey: configKeyOf(first.scope, first.limit),
      spentLimits: spentLimits.map((status) => ({ ...status, configKey: configKeyOf(status.scope, status.limit) })),
    },
  });
}

function formatAmount(limit: BudgetLimitName, amount: number): string {
  if (limit === 'maxUsd') return `$${amount.toFixed(2)}`;
  if (limit === 'maxWallSeconds') return `${Math.round(amount).toLocaleString('en-US')} s of wall time`;
  return `${amount.toLocaleString('en-US')} ${limit === 'maxCalls' ? 'calls' : 'tokens'}`;
}

/** Double the limit (or the usage, if higher), so the hint is a plausible next value. */
function suggestedLimit(status: BudgetLimitStatus): string {
  const base = Math.max(status.max, status.used);
  const doubled = base === 0 ? (status.limit === 'maxUsd' ? 1 : 100) : base * 2;
  return status.limit === 'maxUsd' ? String(Math.ceil(doubled * 100) / 100) : String(Math.ceil(doubled));
}

function budgetConfigError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}
