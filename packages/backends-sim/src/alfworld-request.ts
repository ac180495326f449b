/**
 * One step of an ALFWorld game as its request shows it: the goal, the recent steps, the current
 * observation and the admissible actions, read from the user message's sections
 * (`## Goal`, `## Recent steps`, `## Current observation (step 5 of at most 50)`, `## Admissible actions`).
 * Nothing else is known to the player: no counter, no memory of earlier requests.
 */

interface AlfworldRecentStep {
  action: string;
  observation: string;
}

export interface AlfworldStepView {
  goalText: string;
  /** Oldest first. */
  recentSteps: AlfworldRecentStep[];
  observation: string;
  step: number;
  admissible: string[];
}

/** Whether a request is an ALFWorld game step: an admissible-actions list, and a reply format with `<action>`. */
export function isAlfworldRequest(systemText: string, userText: string): boolean {
  return /^##[ \t]+Admissible actions[ \t]*$/im.test(userText) && /<action>/i.test(`${systemText}\n${userText}`);
}

/** The body of a `## ` section whose heading starts with `heading`, up to the next `## ` heading. */
function section(text: string, heading: string): string | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.toLowerCase().startsWith(`## ${heading.toLowerCase()}`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^## /.test(line));
  return lines
    .slice(start + 1, end < 0 ? lines.length : end)
    .join('\n')
    .trim();
}

function recentStepsOf(text: string): AlfworldRecentStep[] {
  const steps = new Map<number, AlfworldRecentStep>();
  let current: { step: number; field: 'action' | 'observation' } | undefined;
  for (const line of text.split('\n')) {
    const labelled = /^Step (\d+) (action|observation): ?(.*)$/.exec(line);
    if (labelled) {
      const step = Number(labelled[1]);
      const field = labelled[2] as 'action' | 'observation';
      const entry = steps.get(step) ?? { action: '', observation: '' };
      entry[field] = (labelled[3] as string).trim();
      steps.set(step, entry);
      current = { step, field };
    } else if (current !== undefined && line.trim() !== '') {
      const entry = steps.get(current.step) as AlfworldRecentStep;
      entry[current.field] = `${entry[current.field]}\n${line.trim()}`;
    }
  }
  return [...steps.entries()].sort((left, right) => left[0] - right[0]).map(([, entry]) => entry);
}

/** Reads a game step's user message. The goal falls back on the opening observation's "Your task is to: …". */
export function readAlfworldStep(userText: string): AlfworldStepView {
  const observationHeading = /^## Current observation(?: \(step (\d+)[^)]*\))?/im.exec(userText);
  const observation = section(userText, 'Current observation') ?? '';
  const goalText = section(userText, 'Goal') ?? /Your task is to: (.*)$/m.exec(observation)?.[1] ?? '';
  const admissible = (section(userText, 'Admissible actions') ?? '')
    .split('\n')
    .map((line) => line.replace(/^\s*[-*]\s*/, '').trim())
    .filter((line) => line !== '');
  return {
    goalText: goalText.split('\n')[0]?.trim() ?? '',
    recentSteps: recentStepsOf(section(userText, 'Recent steps') ?? ''),
    observation,
    step: Number(observationHeading?.[1] ?? 1),
    admissible,
  };
}
