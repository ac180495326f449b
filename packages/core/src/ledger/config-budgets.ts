import type { SkillOptConfig } from '../config/core-config-schema.js';
import type { BudgetLimits, Budgets } from './budget.js';

/** The ledger's budgets from a config's `budget` section: the limits of each role and of the run as a whole. */
export function budgetsFromConfig(config: SkillOptConfig): Budgets {
  const limits = (section: SkillOptConfig['budget']['total']): BudgetLimits => ({
    ...(section.max_calls !== undefined ? { maxCalls: section.max_calls } : {}),
    ...(section.max_tokens !== undefined ? { maxTokens: section.max_tokens } : {}),
    ...(section.max_usd !== undefined ? { maxUsd: section.max_usd } : {}),
    ...(section.max_wall_seconds !== undefined ? { maxWallSeconds: section.max_wall_seconds } : {}),
  });
  return { target: limits(config.budget.target), optimizer: limits(config.budget.optimizer), total: limits(config.budget.total) };
}
