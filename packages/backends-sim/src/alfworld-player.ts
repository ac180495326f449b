import { ALFWORLD_CLASSES_OF_KIND, type AlfworldFailureClass } from './alfworld-failure-classes.js';
import { parseAlfworldGoal, TRANSFORMATION_APPLIANCES, typeOf, type AlfworldGoal } from './alfworld-goal.js';
import type { AlfworldStepView } from './alfworld-request.js';
import { readSituation, type AlfworldSituation } from './alfworld-situation.js';
import type { FailureClass, RuleEffects } from './failure-classes.js';
import { hashHex, pick, unitHash } from './hashing.js';
import { firingClasses, type TargetSettings } from './target.js';

/**
 * The simulated target playing an ALFWorld game, one request at a time. Its policy is a function of
 * the request alone (the goal, the current observation, the recent steps, the admissible actions):
 * search the receptacles in a fixed order for the goal's object, take it, heat, cool or clean it at
 * its appliance when the goal asks, take it to a receptacle of the goal's type and put it there;
 * for a light goal carry it to the desklamp and use the lamp; for two objects, place one and then
 * find the second. Its latent tendencies (per game: seeded from the goal text) bend that policy
 * until the skill holds the rule that fixes them.
 */

export interface AlfworldDecision {
  goal: AlfworldGoal | undefined;
  /** The game's latent tendencies (fixed per goal and seed, whatever the skill). */
  tendencies: AlfworldFailureClass[];
  /** The tendencies that act under this skill. */
  active: AlfworldFailureClass[];
  /** Always one of the admissible actions (`look` when the list is empty). */
  action: string;
  thought: string;
  noisy: boolean;
}

interface Move {
  action: string;
  thought: string;
}

const ADJECTIVES = { heat: 'hot', cool: 'cool', clean: 'clean' } as const;
/** Actions that change nothing in the game: what a moment of inattention (the noise) picks. */
const IDLE_ACTION = /^(?:look|inventory|examine .+)$/;

class Turn {
  readonly admissible: readonly string[];
  constructor(
    readonly goal: AlfworldGoal,
    readonly situation: AlfworldSituation,
    admissible: readonly string[],
    readonly active: ReadonlySet<AlfworldFailureClass>,
  ) {
    this.admissible = admissible.map((action) => action.toLowerCase());
  }

  has(action: string): boolean {
    return this.admissible.includes(action);
  }

  find(pattern: RegExp): string | undefined {
    return this.admissible.find((action) => pattern.test(action));
  }

  get here(): string | undefined {
    return this.situation.location;
  }

  atType(type: string | undefined): boolean {
    return type !== undefined && this.here !== undefined && typeOf(this.here) === type;
  }

  /** The next receptacle after this one in the fixed order (the first, in the middle of the room), wrapping round. */
  goOn(thought: string): Move {
    const { receptacles } = this.situation;
    const start = this.here === undefined ? -1 : receptacles.indexOf(this.here);
    for (let offset = 1; offset <= receptacles.length; offset += 1) {
      const next = receptacles[(start + offset) % receptacles.length] as string;
      if (next !== this.here && this.has(`go to ${next}`)) return { action: `go to ${next}`, thought: `${thought} I go on to the ${next}.` };
    }
    return { action: 'look', thought: `${thought} I look around.` };
  }

  /** The first receptacle of a type in the fixed order, other than this one. */
  goToType(type: string, thought: string): Move | undefined {
    const target = this.situation.receptacles.find((name) => typeOf(name) === type && name !== this.here && this.has(`go to ${name}`));
    return target === undefined ? undefined : { action: `go to ${target}`, thought: `${thought} I go to the ${target}.` };
  }

  /** Looking for something not here: open a closed receptacle to check inside, unless closed ones are walked past. */
  search(wanted: string): Move {
    const open = this.here === undefined ? undefined : `open ${this.here}`;
    if (open !== undefined && this.has(open)) {
      if (this.active.has('skips-closed-receptacles')) return this.goOn(`The ${this.here} is closed, so the ${wanted} is not here.`);
      return { action: open, thought: `The ${this.here} is closed; I open it to check for the ${wanted} inside.` };
    }
    return this.goOn(`I do not see the ${wanted} here.`);
  }

  /** Whether the recent steps show the object in hand transformed as the goal asks. */
  transformed(held: string): boolean {
    const { transformation } = this.goal;
    if (transformation === undefined) return true;
    return this.situation.observations.some((observation) => observation.includes(`you ${transformation} the ${held} using the `));
  }

  justPickedUpHere(held: string): boolean {
    return this.here !== undefined && this.situation.observations.some((observation) => observation.includes(`you pick up the ${held} from the ${this.here}.`));
  }

  whileHolding(held: string): Move {
    const { goal } = this;
    if (goal.kind === 'look-in-light') {
      const lamp = this.find(/^use desklamp \d+$/);
      if (lamp !== undefined) return { action: lamp, thought: `I hold the ${held}; I turn on the desklamp here to look at it in the light.` };
      return this.goOn(`I hold the ${held} and need a desklamp.`);
    }
    const transformation = goal.transformation;
    // At a receptacle of the goal's type with the object, it was brought here ready, unless it was only just picked up here.
    const ready =
      transformation === undefined ||
      this.active.has('skips-transformation') ||
      this.transformed(held) ||
      (this.atType(goal.receptacle) && !this.justPickedUpHere(held));
    if (!ready) {
      const appliance = TRANSFORMATION_APPLIANCES[transformation];
      const transform = this.find(new RegExp(`^${transformation} ${held} with ${appliance} \\d+$`));
      if (transform !== undefined)
        return { action: transform, thought: `The goal wants the ${typeOf(held)} ${ADJECTIVES[transformation]}; I ${transformation} it here.` };
      if (this.atType(appliance) && this.has(`open ${this.here}`)) return { action: `open ${this.here}`, thought: `I open the ${this.here} to use it.` };
      return this.goToType(appliance, `I hold the ${held}, which must be ${ADJECTIVES[transformation]} first.`) ?? this.goOn(`I need a ${appliance}.`);
    }
    const receptacle = goal.receptacle as string;
    if (this.atType(receptacle)) {
      const put = `move ${held} to ${this.here}`;
      if (this.has(put)) return { action: put, thought: `I put the ${held} in the ${this.here}.` };
      if (this.has(`open ${this.here}`)) return { action: `open ${this.here}`, thought: `The ${this.here} is closed; I open it to put the ${held} inside.` };
    }
    return this.goToType(receptacle, `I hold the ${held}, ready to be placed.`) ?? this.goOn(`I need a ${receptacle}.`);
  }

  emptyHanded(): Move {
    const { goal } = this;
    if (goal.kind === 'look-in-light' && this.active.has('lamp-before-object')) {
      const lamp = this.find(/^use desklamp \d+$/);
      if (lamp === undefined) return this.search('desklamp');
      if (this.situation.observations.some((observation) => observation.includes('you turn on the desklamp')))
        return { action: 'look', thought: 'The desklamp is on; I look at the room in its light.' };
      return { action: lamp, thought: 'I turn on the desklamp first.' };
    }
    const take = this.here === undefined ? undefined : this.find(new RegExp(`^take ${goal.object} \\d+ from ${this.here}$`));
    if (take !== undefined && this.atType(goal.receptacle)) {
      // A goal object already in a receptacle of the goal's type.
      const believesDone =
        goal.kind === 'place' ||
        (goal.kind === 'transform' && this.active.has('skips-transformation')) ||
        (goal.kind === 'place-two' && this.active.has('stops-after-one'));
      if (believesDone) return { action: 'look', thought: `The ${goal.object} is in the ${this.here}; the task should be complete.` };
      if (goal.kind === 'place-two') return this.goOn(`This ${goal.object} is already in place; I need another one.`);
    }
    if (take !== undefined) return { action: take, thought: `I see a ${goal.object} here, so I pick it up.` };
    return this.search(goal.object);
  }

  decide(): Move {
    const held = this.situation.holding;
    return held === undefined ? this.emptyHanded() : this.whileHolding(held);
  }
}

/** The action actually sent: the decided one when admissible, else `look`, else the first admissible action. */
function admissibleMove(move: Move, admissible: readonly string[]): Move {
  const lower = admissible.map((action) => action.toLowerCase());
  const at = lower.indexOf(move.action);
  if (at >= 0) return { ...move, action: admissible[at] as string };
  if (admissible.length === 0 || lower.includes('look')) return { action: admissible[lower.indexOf('look')] ?? 'look', thought: move.thought };
  return { action: admissible[0] as string, thought: move.thought };
}

export function decideAlfworldStep(settings: TargetSettings, view: AlfworldStepView, effects: RuleEffects): AlfworldDecision {
  const goal = parseAlfworldGoal(view.goalText);
  const gameKey = view.goalText.trim().toLowerCase();
  const possible: readonly AlfworldFailureClass[] = goal === undefined ? [] : ALFWORLD_CLASSES_OF_KIND[goal.kind];
  const tendencies = possible.filter((failureClass) => unitHash(settings.seed, 'tendency', gameKey, failureClass) < settings.tendencyRates[failureClass]);
  const active = firingClasses(settings.seed, gameKey, possible as FailureClass[], tendencies, effects) as AlfworldFailureClass[];
  const stepKey = hashHex(view.step, view.observation, ...view.recentSteps.map((step) => step.action)).slice(0, 16);
  const idle = view.admissible.filter((action) => IDLE_ACTION.test(action.toLowerCase()));
  const noisy = idle.length > 0 && unitHash(settings.seed, 'alfworld-noise', gameKey, stepKey) < settings.noise;
  let move: Move;
  if (noisy) move = { action: pick(idle, settings.seed, 'alfworld-noise-action', gameKey, stepKey), thought: 'Let me check something first.' };
  else if (goal === undefined) move = { action: 'look', thought: 'I do not understand the goal, so I look around.' };
  else move = new Turn(goal, readSituation(view), view.admissible, new Set(active)).decide();
  const sent = admissibleMove(move, view.admissible);
  return { goal, tendencies, active, action: sent.action, thought: sent.thought, noisy };
}

/** The reply the env asks for: the reasoning inside `<think></think>`, then the action copied exactly inside `<action></action>`. */
export function renderAlfworldReply(decision: AlfworldDecision): string {
  return `<think>${decision.thought}</think>\n<action>${decision.action}</action>`;
}
