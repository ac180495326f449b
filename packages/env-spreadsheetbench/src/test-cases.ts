import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SpreadsheetTestCase } from './items.js';

const LAYOUTS: ReadonlyArray<{ input: string; answer: string }> = [
  { input: '_input.xlsx', answer: '_answer.xlsx' },
  { input: '_init.xlsx', answer: '_golden.xlsx' },
];

/**
 * The test cases in a task folder: `N_<id>_input.xlsx` with `N_<id>_answer.xlsx` (v0.1), or
 * `N_<id>_init.xlsx` with `N_<id>_golden.xlsx` (Verified), paired by their case number (the name's
 * prefix before the first `_`) and sorted by it; otherwise `initial.xlsx` with `golden.xlsx` as
 * case 1. An input without its answer is left out (it cannot be scored). Empty when none is found.
 */
export async function findTestCases(directory: string): Promise<SpreadsheetTestCase[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const present = new Set(names);
  for (const layout of LAYOUTS) {
    const cases: SpreadsheetTestCase[] = [];
    for (const name of names.filter((entry) => entry.endsWith(layout.input)).sort()) {
      const answerName = `${name.slice(0, -layout.input.length)}${layout.answer}`;
      if (!present.has(answerName)) continue;
      cases.push({ number: name.split('_')[0] ?? name, input: path.join(directory, name), answer: path.join(directory, answerName) });
    }
    if (cases.length > 0) return cases.sort((left, right) => compareCaseNumbers(left.number, right.number));
  }
  if (present.has('initial.xlsx') && present.has('golden.xlsx'))
    return [{ number: '1', input: path.join(directory, 'initial.xlsx'), answer: path.join(directory, 'golden.xlsx') }];
  return [];
}

function compareCaseNumbers(left: string, right: string): number {
  const difference = Number(left) - Number(right);
  return Number.isFinite(difference) && difference !== 0 ? difference : left.localeCompare(right);
}
