import type { AlfworldTaskKind } from './alfworld-goal.js';
import { gap, rule, type RulePattern } from './rule-patterns.js';

/**
 * The procedural failures of the simulated target playing an ALFWorld game. Each ends the game
 * without the goal reached (a timeout), which is all ALFWorld scores.
 */
export const ALFWORLD_FAILURE_CLASSES = [
  /** For a hot, cool or clean goal: the object is put in place without the transformation. */
  'skips-transformation',
  /** While searching, closed receptacles are walked past: what they hold is never found. */
  'skips-closed-receptacles',
  /** For a look-at-in-light goal: the desklamp is used without the object in hand. */
  'lamp-before-object',
  /** For a two-object goal: the search stops once the first object is in place. */
  'stops-after-one',
] as const;
export type AlfworldFailureClass = (typeof ALFWORLD_FAILURE_CLASSES)[number];

/** The classes that can happen in a game of each kind. */
export const ALFWORLD_CLASSES_OF_KIND: Readonly<Record<AlfworldTaskKind, readonly AlfworldFailureClass[]>> = {
  place: ['skips-closed-receptacles'],
  'place-two': ['stops-after-one', 'skips-closed-receptacles'],
  'look-in-light': ['lamp-before-object', 'skips-closed-receptacles'],
  transform: ['skips-transformation', 'skips-closed-receptacles'],
};

/**
 * How often a game carries each tendency. Calibrated so that a skill without these rules wins
 * roughly a third of a mixed set: a transformation, light or two-object game is won about 0.4 of
 * the time, less when its object is hidden in a closed receptacle (half the time skipped).
 */
export const ALFWORLD_TENDENCY_RATES: Readonly<Record<AlfworldFailureClass, number>> = {
  'skips-transformation': 0.6,
  'skips-closed-receptacles': 0.5,
  'lamp-before-object': 0.6,
  'stops-after-one': 0.6,
};

const TRANSFORM = '(?:heat|heats|heated|heating|cool|cools|cooled|cooling|clean|cleans|cleaned|cleaning|transform\\w*)';
const PLACE = '(?:put|puts|putting|place|places|placing|move|moves|moving|drop|dropping|leave|leaving)';
const LAMP = '(?:desk ?lamps?|lamps?|light)';
const HOLD = '(?:pick(?:ing)? up|take|taking|hold|holding|grab|grabbing|carry|carrying|have it in hand|in hand)';
const STOP = "(?:never|do not|don't|not)";

export const ALFWORLD_GOOD_RULES: Readonly<Record<AlfworldFailureClass, readonly RulePattern[]>> = {
  'skips-transformation': [
    rule(`\\b${TRANSFORM}\\b[^.;\\n]{0,100}?\\b(?:before|first|prior to)\\b[^.;\\n]{0,60}?\\b${PLACE}\\b`),
    rule(`\\b${STOP}\\b[^.;\\n]{0,30}?\\b${PLACE}\\b[^.;\\n]{0,80}?\\b(?:before|until)\\b[^.;\\n]{0,60}?\\b${TRANSFORM}\\b`, false),
    rule(`\\b(?:never|do not|don't)\\s+(?:skip|forget|omit|leave out)\\b[^.;\\n]{0,40}?\\b${TRANSFORM}\\b`, false),
  ],
  'skips-closed-receptacles': [
    rule('\\bopen\\b[^.;\\n]{0,40}?\\bclosed\\b'),
    rule('\\bclosed\\b[^.;\\n]{0,60}?\\bopen (?:it|them|each|every)\\b'),
    rule(`\\b(?:never|do not|don't)\\s+(?:skip|walk past|pass|ignore|pass over|overlook)\\b[^.;\\n]{0,30}?\\bclosed\\b`, false),
    rule('\\b(?:look|check|search)\\s+inside\\b[^.;\\n]{0,40}?\\b(?:closed|drawers?|cabinets?|fridge)\\b'),
  ],
  'lamp-before-object': [
    rule(`\\b${HOLD}\\b[^.;\\n]{0,40}?\\bobject\\b[^.;\\n]{0,40}?\\b(?:first|before)\\b[^.;\\n]{0,60}?\\b${LAMP}\\b`),
    rule(
      `\\b(?:use|turn on|switch on)\\b[^.;\\n]{0,30}?\\b${LAMP}\\b[^.;\\n]{0,40}?\\b(?:while|when|after|once)\\b[^.;\\n]{0,30}?\\b(?:holding|carrying|you hold|you carry|you have (?:picked|taken))\\b`,
    ),
    rule(`\\b(?:never|do not|don't)\\s+(?:use|turn on|switch on)\\b[^.;\\n]{0,30}?\\b${LAMP}\\b[^.;\\n]{0,30}?\\b(?:before|without|until)\\b`, false),
  ],
  'stops-after-one': [
    rule('\\bsecond (?:one|object|item)\\b'),
    rule(`\\b(?:never|do not|don't)\\s+stop\\b[^.;\\n]{0,30}?\\b(?:after|at|with)\\b[^.;\\n]{0,15}?\\b(?:one|the first)\\b`, false),
    rule('\\bboth (?:objects|items)\\b[^.;\\n]{0,40}?\\b(?:in place|placed|put|must)\\b'),
    rule('\\bkeep (?:searching|looking)\\b[^.;\\n]{0,40}?\\bafter\\b[^.;\\n]{0,30}?\\bfirst\\b'),
  ],
};

export const ALFWORLD_HARMFUL_RULES: Readonly<Record<AlfworldFailureClass, readonly RulePattern[]>> = {
  'skips-transformation': [
    rule(`\\b${PLACE}\\b${gap(50)}\\b(?:as soon as|immediately after|right after|the moment)\\b${gap(20)}\\b(?:you )?(?:find|found|see|pick|take)`),
    rule(`\\b(?:skip|no need to)\\b${gap(30)}\\b${TRANSFORM}\\b`),
  ],
  'skips-closed-receptacles': [
    rule(`\\b(?:skip|ignore|avoid|pass)\\b${gap(20)}\\bclosed\\b`),
    rule(`\\b(?:search|check|look)\\b${gap(10)}\\b(?:only|just)\\b${gap(20)}\\b(?:open|visible)\\b${gap(10)}\\breceptacles?\\b`),
  ],
  'lamp-before-object': [
    rule(`\\b(?:turn on|use|switch on)\\b${gap(20)}\\b${LAMP}\\b${gap(10)}\\bfirst\\b`),
    rule(`\\bfirst\\b${gap(10)}\\b(?:turn on|use|switch on)\\b${gap(10)}\\b${LAMP}\\b`),
  ],
  'stops-after-one': [rule(`\\bonce\\b${gap(20)}\\b(?:one|an|the first) (?:object|item)\\b${gap(60)}\\b(?:done|complete|finished|stop)\\b`)],
};

/** Rules that address each class, in several wordings (the optimizer picks one by seed), none naming a task's item. */
export const ALFWORLD_GOOD_RULE_PHRASINGS: Readonly<Record<AlfworldFailureClass, readonly string[]>> = {
  'skips-transformation': [
    'When the goal asks for a hot, cool or clean object, heat it with a microwave, cool it with a fridge or clean it with a sinkbasin before you put it in place.',
    'Always do the transformation first: heat, cool or clean the object at its appliance (microwave, fridge, sinkbasin) before moving it to the target receptacle.',
    'Never put the object in the target receptacle before it has been heated, cooled or cleaned as the goal says.',
    'Do not skip the heating, cooling or cleaning step: take the object to the microwave, fridge or sinkbasin first, then place it.',
  ],
  'skips-closed-receptacles': [
    'Open every closed receptacle (drawer, cabinet, fridge) you search and check inside before moving on.',
    'When a receptacle is closed, open it and look inside: objects are often hidden in drawers and cabinets.',
    'Never walk past a closed receptacle while searching; open it first to see what it holds.',
    'While searching, open closed drawers, cabinets and the fridge and check inside them.',
  ],
  'lamp-before-object': [
    'For a look-at-in-light goal, pick up the object first, then go to the desklamp and use it while holding the object.',
    'Take the object in hand before you turn on the desklamp; use the lamp only while holding it.',
    'Never use the desklamp before you are holding the object the goal names.',
    'Hold the object first and carry it to the desklamp, then turn the lamp on where it stands.',
  ],
  'stops-after-one': [
    'For a goal with two objects, after placing the first one, find a second one and put it in the same kind of receptacle too.',
    'When the goal says two, do not stop after the first: search for the second object and place it as well.',
    'Two-object goals need both objects in place; keep searching after the first one is placed.',
    'Never stop after one object when the goal asks for two: find the second one and place it too.',
  ],
};

/** Plausible-sounding rules that cause each class in every game of its kind (proposed at `harmfulRuleRate`). */
export const ALFWORLD_HARMFUL_RULE_PHRASINGS: Readonly<Record<AlfworldFailureClass, readonly string[]>> = {
  'skips-transformation': ['Put the object in the target receptacle as soon as you find it, to save steps.'],
  'skips-closed-receptacles': ['Search only the receptacles that are already open; skip closed ones to save steps.'],
  'lamp-before-object': ['Turn on the desklamp first, so the light is ready when you bring the object.'],
  'stops-after-one': ['Once one object is in the target receptacle the task is complete, so stop there.'],
};

export const ALFWORLD_CLASS_DESCRIPTIONS: Readonly<Record<AlfworldFailureClass, string>> = {
  'skips-transformation': 'the object put in place without the heating, cooling or cleaning the goal asks for',
  'skips-closed-receptacles': 'closed receptacles walked past without opening them, so the object inside was never found',
  'lamp-before-object': 'the desklamp used without holding the object',
  'stops-after-one': 'only one object placed for a goal that asks for two',
};
