import { forEachJsonLine } from '../../harvest/json-lines.js';
import type { LineReadResult } from '../../harvest/line-reader.js';
import { asObject } from '../json-fields.js';

/**
 * VS Code writes a chat session as an append-only operation log (upstream-sleep §2.3): each line
 * changes one object, and the session is that object once every line is applied. The kinds:
 * 0 replaces the whole object with `v`; 1 sets the value at key path `k` to `v`; 2 patches the
 * array at `k` — appends `v`'s items, or, given an index `i`, cuts the array at `i` first; 3
 * deletes what is at `k`. A path is a list of object keys and array indexes. An operation that
 * does not fit the object (a path through nothing, a patch of what is not an array) is ignored,
 * as VS Code would never have written it against this state.
 */

type PathStep = string | number;

// Keys that would reach an object's prototype rather than a value of its own.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function pathOf(value: unknown): PathStep[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const step of value) {
    if (typeof step === 'string' ? UNSAFE_KEYS.has(step) : !(typeof step === 'number' && Number.isInteger(step) && step >= 0)) return undefined;
  }
  return value as PathStep[];
}

/** What `step` leads to inside `container`, or undefined when there is nothing there. */
function childOf(container: unknown, step: PathStep): unknown {
  if (Array.isArray(container)) return typeof step === 'number' ? container[step] : undefined;
  const object = asObject(container);
  if (object === undefined || typeof step !== 'string' || !Object.hasOwn(object, step)) return undefined;
  return object[step];
}

function resolve(root: unknown, steps: readonly PathStep[]): unknown {
  let current = root;
  for (const step of steps) {
    current = childOf(current, step);
    if (current === undefined) return undefined;
  }
  return current;
}

function setAt(root: unknown, steps: readonly PathStep[], value: unknown): unknown {
  if (steps.length === 0) return value;
  const parent = resolve(root, steps.slice(0, -1));
  const last = steps[steps.length - 1] as PathStep;
  if (Array.isArray(parent)) {
    if (typeof last === 'number' && last <= parent.length) parent[last] = value;
  } else if (asObject(parent) !== undefined && typeof last === 'string') (parent as Record<string, unknown>)[last] = value;
  return root;
}

function patchArrayAt(root: unknown, steps: readonly PathStep[], items: unknown, index: unknown): void {
  const target = resolve(root, steps);
  if (!Array.isArray(target)) return;
  if (index !== undefined) {
    if (!(typeof index === 'number' && Number.isInteger(index) && index >= 0)) return;
    target.length = Math.min(target.length, index);
  }
  if (Array.isArray(items)) target.push(...items);
}

function deleteAt(root: unknown, steps: readonly PathStep[]): void {
  if (steps.length === 0) return;
  const parent = resolve(root, steps.slice(0, -1));
  const last = steps[steps.length - 1] as PathStep;
  if (Array.isArray(parent)) {
    if (typeof last === 'number' && last < parent.length) parent.splice(last, 1);
  } else if (asObject(parent) !== undefined && typeof last === 'string') delete (parent as Record<string, unknown>)[last];
}

/** The state after one operation; `state` itself is changed where the operation allows. */
export function applyOperation(state: unknown, operation: unknown): unknown {
  const line = asObject(operation);
  if (line === undefined) return state;
  if (line.kind === 0) return line.v;
  const steps = pathOf(line.k);
  if (steps === undefined) return state;
  switch (line.kind) {
    case 1:
      return setAt(state, steps, line.v);
    case 2:
      patchArrayAt(state, steps, line.v, line.i);
      return state;
    case 3:
      deleteAt(state, steps);
      return state;
    default:
      return state;
  }
}

export interface ReplayResult extends LineReadResult {
  /** The session object every line built; undefined when no line gave it a value. */
  state: unknown;
}

/**
 * The session object of one log, read line by line. The whole object is held, as a replay must;
 * the file's text never is. A line that is not JSON (a truncated last line a writer had not
 * finished) is reported and passed over.
 */
export async function replayOperationLog(
  file: string,
  onCorruptLine: (lineNumber: number, message: string) => void,
  signal?: AbortSignal,
): Promise<ReplayResult> {
  let state: unknown;
  const result = await forEachJsonLine(
    file,
    (operation) => {
      state = applyOperation(state, operation);
    },
    { signal, onCorruptLine },
  );
  return { ...result, state };
}
