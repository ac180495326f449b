import type { SkillOptError } from '@skillopt/contract';
import type { BudgetLimitStatus, SkillOptConfig } from '@skillopt/core';
import type { SpentLimit } from './night-report.js';

/** What a night spent before its run began: mining its tasks with the optimizer's model, and the time that took. */
export interface NightSpend {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  wallSeconds: number;
}

type BudgetSection = SkillOptConfig['budget'];
type LimitKey = 'max_calls' | 'max_tokens' | 'max_usd' | 'max_wall_seconds';

const LIMIT_KEYS: Readonly<Record<string, LimitKey>> = {
  maxCalls: 'max_calls',
  maxTokens: 'max_tokens',
  maxUsd: 'max_usd',
  maxWallSeconds: 'max_wall_seconds',
};

function spentAgainst(key: LimitKey, spent: NightSpend): number {
  if (key === 'max_calls') return spent.calls;
  if (key === 'max_tokens') return spent.inputTokens + spent.outputTokens;
  if (key === 'max_usd') return spent.costUsd;
  return spent.wallSeconds;
}

/** The scopes the spend counts in: the miner is the optimizer's model, and wall time is the night's as a whole. */
function counts(scope: string, key: LimitKey): boolean {
  return scope === 'total' || (scope === 'optimizer' && key !== 'max_wall_seconds');
}

/**
 * The night's budgets with what it already spent taken off, so one budget covers the whole night
 * (mining, replays, reflection, the gate) though core's run only sees the part after mining.
 */
export function budgetLeft(budget: BudgetSection, spent: NightSpend): BudgetSection {
  const left = structuredClone(budget);
  for (const scope of ['total', 'optimizer'] as const) {
    const limits = left[scope] as Partial<Record<LimitKey, number>>;
    for (const key of Object.values(LIMIT_KEYS)) {
      const max = limits[key];
      if (max !== undefined && counts(scope, key)) limits[key] = Math.max(0, max - spentAgainst(key, spent));
    }
  }
  return left;
}

/** The spent limits as the user set them: the run's figures with the spend before it added back. */
export function limitsAsSet(limits: readonly SpentLimit[], spent: NightSpend | undefined, budget: BudgetSection): SpentLimit[] {
  if (spent === undefined) return [...limits];
  return limits.map((limit) => {
    const key = LIMIT_KEYS[limit.limit];
    const scope = budget[limit.scope as 'total' | 'optimizer' | 'target'] as Partial<Record<LimitKey, number>> | undefined;
    if (key === undefined || !counts(limit.scope, key)) return limit;
    return { ...limit, used: limit.used + spentAgainst(key, spent), max: scope?.[key] ?? limit.max };
  });
}

/** The limits a `budget-spent` error names, as a night report shows them. */
export function spentLimitsOf(error: SkillOptError): SpentLimit[] {
  const limits = (error.details?.spentLimits ?? []) as Array<BudgetLimitStatus & { configKey: string }>;
  return limits.map(({ scope, limit, max, used, configKey }) => ({ scope, limit, max, used, configKey }));
}
