/**
 * What the target reads at each step: the skill as its system prompt under `# Skill`, then the
 * fixed game instructions under `# Task`; a user message with the goal, the most recent steps, the
 * current observation and the admissible actions. The reply format (`<think>` then `<action>`) is
 * what action projection reads.
 */

/** The fixed part of the system prompt. */
export const TASK_INSTRUCTIONS = [
  'You are playing a text game set in a household. Reach the goal given in the user message.',
  'Each turn the user message shows the goal, your most recent steps, what you observe now and the actions the game accepts now.',
  'Choose exactly one of the admissible actions.',
  'Reply with your reasoning inside <think></think>, then the action, copied exactly as listed, inside <action></action>.',
].join(' ');

/** The system prompt: the skill (when there is one) under a heading, then the task instructions. */
export function buildSystemPrompt(skill: string): string {
  const trimmed = skill.trim();
  return trimmed === '' ? TASK_INSTRUCTIONS : `# Skill\n\n${trimmed}\n\n# Task\n\n${TASK_INSTRUCTIONS}`;
}

/** One step already taken, as the history shows it. */
export interface PastStep {
  step: number;
  action: string;
  observation: string;
}

export interface StepPrompt {
  goal: string;
  /** The most recent steps, oldest first (already cut to the history window). */
  recentSteps: readonly PastStep[];
  observation: string;
  /** The step about to be taken, counted from 1. */
  step: number;
  maxSteps: number;
  admissible: readonly string[];
}

/** `help` lists the commands, which the prompt already does. */
export function promptedActions(admissible: readonly string[]): string[] {
  return admissible.filter((action) => action.trim().toLowerCase() !== 'help');
}

/** The user message of one step. */
export function buildUserPrompt(prompt: StepPrompt): string {
  const sections = [`## Goal\n\n${prompt.goal}`];
  if (prompt.recentSteps.length > 0) {
    const lines = prompt.recentSteps.flatMap((past) => [`Step ${past.step} action: ${past.action}`, `Step ${past.step} observation: ${past.observation}`]);
    sections.push(`## Recent steps\n\n${lines.join('\n')}`);
  }
  sections.push(`## Current observation (step ${prompt.step} of at most ${prompt.maxSteps})\n\n${prompt.observation}`);
  sections.push(
    `## Admissible actions\n\n${promptedActions(prompt.admissible)
      .map((action) => `- ${action}`)
      .join('\n')}`,
  );
  return sections.join('\n\n');
}

const GOAL_MARKER = 'Your task is to:';

/**
 * The goal in a game's opening text (the words after "Your task is to:"), or undefined when the
 * text has none.
 */
export function goalOf(openingObservation: string): string | undefined {
  const at = openingObservation.lastIndexOf(GOAL_MARKER);
  if (at < 0) return undefined;
  const goal = openingObservation.slice(at + GOAL_MARKER.length).trim();
  return goal === '' ? undefined : goal;
}
