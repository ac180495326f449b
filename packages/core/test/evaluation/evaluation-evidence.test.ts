import { ERROR_CODES } from '@skillopt/contract';
import { assertEvaluationIsEvidence } from '../../src/evaluation/evaluation-evidence';
import type { ItemEvaluation } from '../../src/evaluation/item-evaluation';

function scored(itemId: string): ItemEvaluation {
  return {
    status: 'scored',
    itemId,
    sampleIndex: 0,
    hard: 1,
    soft: 1,
    cached: false,
    attempts: 1,
    result: { status: 'scored', id: itemId, taskType: 'qa', hard: 1, soft: 1, prediction: 'yes' },
  };
}
function excluded(itemId: string, code: string, message: string): ItemEvaluation {
  return { status: 'excluded', itemId, sampleIndex: 0, error: { code, message }, attempts: 1 };
}
const options = { description: 'The evaluation', maxExcludedShare: 0.5 };

describe('assertEvaluationIsEvidence', () => {
  it('accepts an evaluation with no exclusion, or with exclusions up to the allowed share', () => {
    expect(() => assertEvaluationIsEvidence([scored('a'), scored('b')], options)).not.toThrow();
    expect(() => assertEvaluationIsEvidence([scored('a'), excluded('b', 'provider-timeout', 'timed out')], options)).not.toThrow();
  });

  it('refuses one over the share, and one that excluded everything whatever the share', () => {
    const overShare = [scored('a'), excluded('b', 'provider-timeout', 'timed out'), excluded('c', 'provider-timeout', 'timed out')];
    expect(() => assertEvaluationIsEvidence(overShare, options)).toThrow(/excluded 2 of its 3 items \(67%, more than run\.max_excluded_share = 0\.5\)/);
    const everything = [excluded('a', 'provider-timeout', 'timed out')];
    expect(() => assertEvaluationIsEvidence(everything, { ...options, maxExcludedShare: 1 })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.evaluationExcluded, message: expect.stringContaining('every one of its 1 items') }),
    );
  });

  it('names the commonest failures first, each once, on their first line, and says how many others there were', () => {
    const items = [
      excluded('a', 'provider-timeout', 'timed out after 30 s\nstack'),
      excluded('b', 'provider-connection', 'connect ECONNREFUSED'),
      excluded('c', 'provider-connection', 'connect ECONNREFUSED'),
      excluded('d', 'provider-unavailable', '503'),
      excluded('e', 'provider-rate-limited', '429'),
    ];
    expect(() => assertEvaluationIsEvidence(items, { ...options, nextStep: 'resume with `skillopt train --resume run`' })).toThrow(
      'The evaluation excluded every one of its 5 items for infrastructure failures, so it measured nothing: ' +
        'provider-connection: connect ECONNREFUSED (2 items); provider-timeout: timed out after 30 s (1 item); provider-unavailable: 503 (1 item); ' +
        'and 1 other failure. Check that the backend is reachable and its key is valid (`skillopt doctor`), then resume with `skillopt train --resume run`.',
    );
  });
});
