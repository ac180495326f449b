/**
 * An ALFWorld goal as its text states it (`put a hot apple in countertop.`): what kind of task it
 * is, the object type and the receptacle type (type names without instance numbers: any instance
 * counts), and the transformation it asks for.
 */

export type AlfworldTaskKind = 'place' | 'place-two' | 'look-in-light' | 'transform';
export type AlfworldTransformation = 'heat' | 'cool' | 'clean';

export interface AlfworldGoal {
  kind: AlfworldTaskKind;
  /** The object type to act on (`apple`). */
  object: string;
  /** The receptacle type it must end in (`countertop`); absent for look-at-in-light. */
  receptacle?: string;
  /** For the transformation kind: what must be done to the object before it is placed. */
  transformation?: AlfworldTransformation;
}

const ADJECTIVE_TO_TRANSFORMATION: Readonly<Record<string, AlfworldTransformation>> = { hot: 'heat', cool: 'cool', clean: 'clean' };

/** The appliance each transformation is done with (`heat <o> with microwave 1`). */
export const TRANSFORMATION_APPLIANCES: Readonly<Record<AlfworldTransformation, string>> = { heat: 'microwave', cool: 'fridge', clean: 'sinkbasin' };

const NAME = '([a-z][a-z ]*?)';
const PATTERNS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => AlfworldGoal]> = [
  [
    new RegExp(`^put an? (hot|cool|clean) ${NAME} (?:in|on) ${NAME}$`),
    (match) => ({
      kind: 'transform',
      object: match[2] as string,
      receptacle: match[3] as string,
      transformation: ADJECTIVE_TO_TRANSFORMATION[match[1] as string] as AlfworldTransformation,
    }),
  ],
  [
    new RegExp(`^(heat|cool|clean) some ${NAME} and put it (?:in|on) ${NAME}$`),
    (match) => ({ kind: 'transform', object: match[2] as string, receptacle: match[3] as string, transformation: match[1] as AlfworldTransformation }),
  ],
  [new RegExp(`^put two ${NAME} (?:in|on) ${NAME}$`), (match) => ({ kind: 'place-two', object: match[1] as string, receptacle: match[2] as string })],
  [
    new RegExp(`^find two ${NAME} and put them (?:in|on) ${NAME}$`),
    (match) => ({ kind: 'place-two', object: match[1] as string, receptacle: match[2] as string }),
  ],
  [new RegExp(`^look at ${NAME} under the desklamp$`), (match) => ({ kind: 'look-in-light', object: match[1] as string })],
  [new RegExp(`^examine the ${NAME} with the desklamp$`), (match) => ({ kind: 'look-in-light', object: match[1] as string })],
  [new RegExp(`^put (?:an?|some) ${NAME} (?:in|on) ${NAME}$`), (match) => ({ kind: 'place', object: match[1] as string, receptacle: match[2] as string })],
];

/** The goal a text states (`put a hot apple in countertop.`, any case, the full stop optional), if it is one of ALFWorld's six. */
export function parseAlfworldGoal(text: string): AlfworldGoal | undefined {
  const sentence = text
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '');
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(sentence);
    if (match) return build(match);
  }
  return undefined;
}

/** The type of an instance name (`apple` of `apple 1`). */
export function typeOf(instance: string): string {
  return instance.replace(/\s+\d+$/, '');
}
