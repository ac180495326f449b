import type { GateItemResult, GateRules } from '../../src/gates/index.js';

/** Per-item results from lists of hard (and optionally soft) scores; `null` marks an excluded item. */
export function itemResults(hard: readonly (number | null)[], soft?: readonly number[]): GateItemResult[] {
  return hard.map((value, index) =>
    value === null
      ? { itemId: `item-${index}`, status: 'excluded', error: { code: 'provider-timeout' } }
      : { itemId: `item-${index}`, status: 'scored', hard: value, soft: soft?.[index] ?? value },
  );
}

export function rules(overrides: Partial<GateRules> = {}): GateRules {
  return { metric: 'hard', useGate: true, noRegression: false, mustPassItemIds: [], ...overrides };
}

export const PLAIN_SKILL = '# Skill\nAnswer the question.\n';

/** TEST DOUBLE. Scripted per-item outcomes for the paired gate's two callbacks, counting what they were asked. */
export function scriptedPairedSides(
  candidate: readonly GateItemResult[],
  incumbent: readonly GateItemResult[],
): {
  items: { id: string }[];
  evaluateCandidate(items: { id: string }[]): Promise<GateItemResult[]>;
  incumbentResults(items: { id: string }[]): Promise<GateItemResult[]>;
  candidateAskedFor: string[];
  incumbentAskedFor: string[];
} {
  const candidateById = new Map(candidate.map((result) => [result.itemId, result]));
  const incumbentById = new Map(incumbent.map((result) => [result.itemId, result]));
  const candidateAskedFor: string[] = [];
  const incumbentAskedFor: string[] = [];
  const lookUp = (byId: Map<string, GateItemResult>, asked: string[]) => async (items: { id: string }[]) =>
    items.map((item) => {
      asked.push(item.id);
      const result = byId.get(item.id);
      if (result === undefined) throw new Error(`no scripted result for ${item.id}`);
      return result;
    });
  return {
    items: candidate.map((result) => ({ id: result.itemId })),
    evaluateCandidate: lookUp(candidateById, candidateAskedFor),
    incumbentResults: lookUp(incumbentById, incumbentAskedFor),
    candidateAskedFor,
    incumbentAskedFor,
  };
}
