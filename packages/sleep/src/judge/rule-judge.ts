import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { nearestWord } from '@skillopt/core';
import type { RuleCheck, RuleJudge } from '../tasks/task-record.js';
import { isRuleOperator, RULE_OPERATORS, runRuleOperator } from './rule-operators.js';

/** A check that failed, as data: reflection reads these instead of splitting the rationale text (spec §9 item 12). */
export interface FailedCheck {
  op: string;
  arg?: string | number | null;
  /** Why the check could not pass whatever the answer (a pattern that does not compile, a blank arg). */
  problem?: string;
}

export interface RuleJudgement {
  /** 1 when every check passed, else 0. */
  hard: number;
  /** The share of checks that passed. */
  soft: number;
  rationale: string;
  failures: FailedCheck[];
}

function describeFailure(failure: FailedCheck): string {
  const shown = failure.arg === undefined || failure.arg === null ? failure.op : `${failure.op}=${String(failure.arg)}`;
  return failure.problem === undefined ? shown : `${shown} [${failure.problem}]`;
}

function unknownOperatorError(op: unknown): SkillOptError {
  const name = typeof op === 'string' ? op : String(op);
  const nearest = typeof op === 'string' ? nearestWord(op, RULE_OPERATORS) : undefined;
  const suggestion = nearest === undefined ? '' : ` Did you mean "${nearest.word}"?`;
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `"${name}" is not a rule check operator.${suggestion} The operators are: ${RULE_OPERATORS.join(', ')}.`,
  });
}

/**
 * Scores an answer against a rule judge. An operator it does not know is a configuration error,
 * thrown: the original let such a check pass, so a misspelt `contians` silently raised every score
 * (spec §9 item 13).
 */
export function scoreRuleJudge(judge: RuleJudge, response: string, toolsCalled: readonly string[] = []): RuleJudgement {
  const checks: readonly RuleCheck[] = judge.checks;
  if (checks.length === 0) return { hard: 0, soft: 0, rationale: 'no checks', failures: [] };
  for (const check of checks) if (!isRuleOperator(check.op)) throw unknownOperatorError(check.op);
  const failures: FailedCheck[] = [];
  for (const check of checks) {
    if (!isRuleOperator(check.op)) continue;
    const outcome = runRuleOperator(check.op, response, check.arg, toolsCalled);
    if (outcome.passed) continue;
    failures.push({
      op: check.op,
      ...(check.arg === undefined ? {} : { arg: check.arg }),
      ...(outcome.problem === undefined ? {} : { problem: outcome.problem }),
    });
  }
  const passed = checks.length - failures.length;
  return {
    hard: failures.length === 0 ? 1 : 0,
    soft: passed / checks.length,
    rationale: failures.length === 0 ? 'all checks passed' : `failed: ${failures.map(describeFailure).join(', ')}`,
    failures,
  };
}
