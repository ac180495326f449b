import { nearestWord } from '@skillopt/core';
import { characterBound } from '../tasks/character-bound.js';
import { compileRulePattern, isRuleOperator, RULE_OPERATORS, SHAPE_OPERATORS, TEXT_ARGUMENT_OPERATORS } from './rule-operators.js';

export interface CheckValidation {
  /** Problems that make the judge unusable: a task file holding one is refused. */
  errors: string[];
  /** Problems worth telling: a check that always passes, a judge that checks only form. */
  warnings: string[];
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a judge whose every check (there is at least one) looks only at the answer's form. */
export function isShapeOnly(judge: unknown): boolean {
  if (!isObject(judge) || !Array.isArray(judge.checks) || judge.checks.length === 0) return false;
  return judge.checks.every((check) => isObject(check) && (SHAPE_OPERATORS as readonly unknown[]).includes(check.op));
}

function validateCheck(check: unknown, label: string, errors: string[], warnings: string[]): void {
  if (!isObject(check)) {
    errors.push(`${label} must be an object, got ${describeType(check)}`);
    return;
  }
  const { op, arg } = check;
  if (typeof op !== 'string') {
    errors.push(`${label} op must be a string, got ${describeType(op)}`);
    return;
  }
  if (!isRuleOperator(op)) {
    // An error, not the original's warning: an unknown operator passed every answer.
    const nearest = nearestWord(op, RULE_OPERATORS);
    const suggestion = nearest === undefined ? '' : ` (did you mean "${nearest.word}"?)`;
    errors.push(`${label} has unknown op "${op}"${suggestion}; the operators are: ${RULE_OPERATORS.join(', ')}`);
    return;
  }
  if (TEXT_ARGUMENT_OPERATORS.includes(op)) {
    if (typeof arg === 'number') return;
    if (typeof arg !== 'string' || arg.trim() === '') {
      errors.push(`${label} ${op} needs a non-empty arg`);
      return;
    }
    if (op === 'regex') {
      try {
        compileRulePattern(arg);
      } catch (error) {
        errors.push(`${label} regex does not compile (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return;
  }
  if (op === 'max_chars' || op === 'min_chars') {
    const bound = characterBound(arg);
    if (bound === undefined) errors.push(`${label} ${op} needs an integer arg, got ${JSON.stringify(arg) ?? 'nothing'}`);
    else if (bound < 0) errors.push(`${label} ${op} cannot be negative`);
    else if (op === 'min_chars' && bound === 0) warnings.push(`${label} min_chars 0 always passes`);
  }
}

/**
 * Checks a rule judge as a hand-written or mined task file carries it. No judge, `{}` and an empty
 * check list are fine (nothing to check); checks are numbered from 1.
 */
export function validateChecks(judge: unknown): CheckValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (judge === null || judge === undefined) return { errors, warnings };
  if (!isObject(judge)) return { errors: [`judge must be an object, got ${describeType(judge)}`], warnings };
  if (judge.checks === undefined) return { errors, warnings };
  if (!Array.isArray(judge.checks)) return { errors: ["judge 'checks' must be an array"], warnings };
  judge.checks.forEach((check, index) => {
    validateCheck(check, `check #${index + 1}`, errors, warnings);
  });
  if (errors.length === 0 && isShapeOnly(judge)) {
    warnings.push('the judge is shape-only: it checks the form of an answer, never whether it is right');
  }
  return { errors, warnings };
}
