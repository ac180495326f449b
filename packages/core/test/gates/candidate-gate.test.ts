import type { TaskItem } from '@skillopt/contract';
import { createCandidateGate, type CandidateGateRequest, type GateEvent, type GateItemResult, type GateSettings } from '../../src/gates/index.js';
import { rules } from './gate-test-doubles.js';

const INCUMBENT = '# Skill\nAnswer the question.\n';
const CANDIDATE = '# Skill\nAnswer the question.\nGive the unit.\n';
const REQUEST: CandidateGateRequest = { incumbentSkill: INCUMBENT, candidateSkill: CANDIDATE, position: { epoch: 1, step: 2, globalStep: 2 }, stage: 'step' };

const items = (count: number): TaskItem[] => Array.from({ length: count }, (_, index) => ({ id: `item-${index}`, taskType: 'factoid' }));

/** A plain evaluator: each skill's hard score per item index, recording which items it was asked for. */
function evaluatorOf(hardBySkill: Record<string, (index: number) => number | null>) {
  const asked: Array<{ skill: 'incumbent' | 'candidate'; itemIds: string[] }> = [];
  const evaluate = async (skill: string, evaluated: readonly TaskItem[]): Promise<GateItemResult[]> => {
    asked.push({ skill: skill === CANDIDATE ? 'candidate' : 'incumbent', itemIds: evaluated.map((item) => item.id) });
    return evaluated.map((item) => {
      const hard = (hardBySkill[skill] as (index: number) => number | null)(Number(item.id.slice('item-'.length)));
      return hard === null
        ? { itemId: item.id, status: 'excluded', error: { code: 'provider-timeout' } }
        : { itemId: item.id, status: 'scored', hard, soft: hard };
    });
  };
  return { evaluate, asked };
}

function gateOver(
  evaluator: ReturnType<typeof evaluatorOf>,
  settings: GateSettings,
  options: { count?: number; signal?: AbortSignal; gateRules?: Parameters<typeof rules>[0] } = {},
) {
  const events: GateEvent[] = [];
  const gate = createCandidateGate({
    evaluate: evaluator.evaluate,
    selectionItems: items(options.count ?? 10),
    rules: rules(options.gateRules),
    settings,
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
  });
  return { gate, events };
}

const PAIRED: GateSettings = { strategy: 'paired', paired: { chunkSize: 4, alpha: 0.05 } };

describe('the candidate gate port', () => {
  describe('strict', () => {
    it('evaluates the incumbent, then the candidate, on every selection item and accepts a higher candidate', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: (index) => (index < 5 ? 1 : 0), [CANDIDATE]: (index) => (index < 8 ? 1 : 0) });
      const { gate } = gateOver(evaluator, { strategy: 'strict' });
      const { decision, candidateScores } = await gate.judge(REQUEST);
      expect(decision).toMatchObject({
        strategy: 'strict',
        accepted: true,
        action: 'accept',
        candidateScore: 0.8,
        incumbentScore: 0.5,
        itemsEvaluated: 10,
        itemsTotal: 10,
      });
      expect(candidateScores).toEqual({ score: 0.8, selectionHard: 0.8, selectionSoft: 0.8 });
      expect(evaluator.asked).toEqual([
        { skill: 'incumbent', itemIds: items(10).map((item) => item.id) },
        { skill: 'candidate', itemIds: items(10).map((item) => item.id) },
      ]);
    });

    it('reports what the candidate scored, then the decision, with the position and the stage', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 1, [CANDIDATE]: () => 1 });
      const { gate, events } = gateOver(evaluator, { strategy: 'strict' });
      const { decision } = await gate.judge({ ...REQUEST, stage: 'slow-update' });
      expect(decision.accepted).toBe(false);
      expect(events).toEqual([
        {
          type: 'candidate-evaluated',
          epoch: 1,
          step: 2,
          globalStep: 2,
          stage: 'slow-update',
          candidateHash: expect.stringMatching(/^[0-9a-f]{16}$/),
          candidateScore: 1,
          incumbentScore: 1,
          itemsEvaluated: 10,
        },
        {
          type: 'gate-decided',
          epoch: 1,
          step: 2,
          globalStep: 2,
          stage: 'slow-update',
          accepted: false,
          strategy: 'strict',
          reason: decision.reason,
          candidateScore: 1,
          incumbentScore: 1,
        },
      ]);
      expect(decision.reason).toContain('tie, and a tie is rejected');
    });

    it('applies the rules it was given: a failed must-pass item vetoes a higher candidate', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 0, [CANDIDATE]: (index) => (index === 3 ? 0 : 1) });
      const { gate } = gateOver(evaluator, { strategy: 'strict' }, { gateRules: { mustPassItemIds: ['item-3'] } });
      const { decision } = await gate.judge(REQUEST);
      expect(decision).toMatchObject({ accepted: false, vetoes: [{ rule: 'must-pass', itemIds: ['item-3'] }] });
    });

    it('scores a candidate with nothing scored as no score at all', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 1, [CANDIDATE]: () => null });
      const { gate } = gateOver(evaluator, { strategy: 'strict' });
      const { decision, candidateScores } = await gate.judge(REQUEST);
      expect(decision.accepted).toBe(false);
      expect(candidateScores).toEqual({ score: null, selectionHard: null, selectionSoft: null });
    });
  });

  describe('paired', () => {
    it('stops once a candidate is clearly better, then scores it on every item', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 0, [CANDIDATE]: (index) => (index < 36 ? 1 : 0) });
      const { gate, events } = gateOver(evaluator, PAIRED, { count: 40 });
      const { decision, candidateScores } = await gate.judge(REQUEST);
      // The incumbent's results first (the futility stop needs them), then eight straight wins reach the
      // boundary in two chunks of four, then the whole split for the candidate's scores.
      expect(decision).toMatchObject({ strategy: 'paired', accepted: true, itemsEvaluated: 8, itemsTotal: 40 });
      expect(evaluator.asked.map((call) => [call.skill, call.itemIds.length])).toEqual([
        ['incumbent', 40],
        ['candidate', 4],
        ['candidate', 4],
        ['candidate', 40],
      ]);
      expect(candidateScores).toEqual({ score: 0.9, selectionHard: 0.9, selectionSoft: 0.9 });
      expect(events.map((event) => [event.type, event.stage])).toEqual([
        ['candidate-evaluated', 'step'],
        ['gate-decided', 'step'],
      ]);
      expect(events[0]).toMatchObject({ itemsEvaluated: 8 });
    });

    it('rejects a clearly worse candidate early and scores it only on the items it was evaluated on', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 1, [CANDIDATE]: () => 0 });
      const { gate } = gateOver(evaluator, PAIRED, { count: 40 });
      const { decision, candidateScores } = await gate.judge(REQUEST);
      expect(decision.accepted).toBe(false);
      const candidateItemsAsked = evaluator.asked.filter((call) => call.skill === 'candidate').flatMap((call) => call.itemIds);
      expect(candidateItemsAsked.length).toBe(decision.itemsEvaluated);
      expect(candidateItemsAsked.length).toBeLessThan(40);
      expect(candidateScores).toEqual({ score: 0, selectionHard: 0, selectionSoft: 0 });
    });

    it('evaluates nothing once its signal has aborted', async () => {
      const evaluator = evaluatorOf({ [INCUMBENT]: () => 0, [CANDIDATE]: () => 1 });
      const controller = new AbortController();
      controller.abort(new Error('stopped by the user'));
      const { gate, events } = gateOver(evaluator, PAIRED, { signal: controller.signal });
      await expect(gate.judge(REQUEST)).rejects.toThrow('stopped by the user');
      expect(evaluator.asked).toEqual([]);
      expect(events).toEqual([]);
    });
  });
});
