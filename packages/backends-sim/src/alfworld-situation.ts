import type { AlfworldStepView } from './alfworld-request.js';

/**
 * Where the player stands and what it holds, read from one request alone: the current
 * observation, the recent steps and the admissible actions (never from memory: requests are
 * retried and games run in parallel).
 */
export interface AlfworldSituation {
  /** The receptacle the player is at (`drawer 1`); absent in the middle of the room. */
  location?: string;
  /** The object in hand (`apple 1`). */
  holding?: string;
  /** Every receptacle the player can go to, with the current one, in a fixed order (by type, then number). */
  receptacles: string[];
  /** The observations of the recent steps and the current one, oldest first, lower-cased. */
  observations: string[];
}

const INSTANCE = '([a-z]+(?: [a-z]+)*? \\d+)';
/** Phrases of ALFWorld's feedback that name the receptacle the player is at. */
const LOCATION_PHRASES = [
  new RegExp(`you arrive at ${INSTANCE}\\.`),
  new RegExp(`you (?:open|close) the ${INSTANCE}\\.`),
  new RegExp(`you pick up the [a-z ]+? \\d+ from the ${INSTANCE}\\.`),
  new RegExp(`you move the [a-z ]+? \\d+ to the ${INSTANCE}\\.`),
  new RegExp(`you (?:heat|cool|clean) the [a-z ]+? \\d+ using the ${INSTANCE}\\.`),
  new RegExp(`you are facing the ${INSTANCE}[.,]`),
  new RegExp(`(?:^|\\. )on the ${INSTANCE}, you see`),
  new RegExp(`(?:^|\\. )the ${INSTANCE} is (?:open|closed)\\b`),
];

function locationIn(observation: string): string | undefined {
  let found: { at: number; name: string } | undefined;
  for (const phrase of LOCATION_PHRASES) {
    const match = phrase.exec(observation);
    if (match && (found === undefined || match.index < found.at)) found = { at: match.index, name: match[1] as string };
  }
  return found?.name;
}

/** What an observation says about the hands: an object now held, nothing held, or nothing said. */
function handsIn(observation: string): { holding: string | undefined } | undefined {
  const picked = /you pick up the ([a-z ]+? \d+) from the /.exec(observation) ?? /you (?:heat|cool|clean) the ([a-z ]+? \d+) using the /.exec(observation);
  if (picked) return { holding: picked[1] as string };
  const carrying = /you are carrying: an? ([a-z ]+? \d+)\./.exec(observation);
  if (carrying) return { holding: carrying[1] as string };
  if (/you move the [a-z ]+? \d+ to the |you are not carrying anything/.test(observation)) return { holding: undefined };
  return undefined;
}

function heldFromAdmissible(admissible: readonly string[]): string | undefined {
  for (const action of admissible) {
    const match = /^move (.+? \d+) to .+$/.exec(action) ?? /^(?:heat|cool|clean) (.+? \d+) with .+$/.exec(action);
    if (match) return match[1] as string;
  }
  return undefined;
}

function byTypeThenNumber(left: string, right: string): number {
  const [leftType, leftNumber] = [left.replace(/ \d+$/, ''), Number(/(\d+)$/.exec(left)?.[1] ?? 0)];
  const [rightType, rightNumber] = [right.replace(/ \d+$/, ''), Number(/(\d+)$/.exec(right)?.[1] ?? 0)];
  return leftType < rightType ? -1 : leftType > rightType ? 1 : leftNumber - rightNumber;
}

export function readSituation(view: AlfworldStepView): AlfworldSituation {
  const admissible = view.admissible.map((action) => action.toLowerCase());
  const observations = [...view.recentSteps.map((step) => step.observation), view.observation].map((text) => text.toLowerCase());
  let location: string | undefined;
  for (const observation of [...observations].reverse()) {
    location = locationIn(observation);
    if (location !== undefined) break;
  }
  if (location === undefined) {
    const lastGo = [...view.recentSteps].reverse().find((step) => /^go to /i.test(step.action));
    location = lastGo?.action
      .toLowerCase()
      .replace(/^go to /, '')
      .trim();
  }
  let holding = heldFromAdmissible(admissible);
  if (holding === undefined && !admissible.some((action) => action.startsWith('take '))) {
    for (const observation of observations) {
      const hands = handsIn(observation);
      if (hands !== undefined) holding = hands.holding;
    }
  }
  const destinations = admissible.filter((action) => action.startsWith('go to ')).map((action) => action.slice('go to '.length).trim());
  const receptacles = [...new Set([...destinations, ...(location === undefined ? [] : [location])])].sort(byTypeThenNumber);
  return { ...(location === undefined ? {} : { location }), ...(holding === undefined ? {} : { holding }), receptacles, observations };
}
