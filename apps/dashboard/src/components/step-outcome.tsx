import type { StepPoint } from '../api/api-types.js';

const OUTCOME_TEXT: Record<StepPoint['outcome'], { mark: string; text: string }> = {
  accepted: { mark: '✓', text: 'accepted' },
  rejected: { mark: '✗', text: 'rejected' },
  'no-edits': { mark: '○', text: 'no edits' },
  unchanged: { mark: '=', text: 'unchanged' },
  'stage-failed': { mark: '!', text: 'stage failed' },
  'nothing-scored': { mark: '∅', text: 'nothing scored' },
};

/** A step's outcome as a sign and a word (never colour alone). */
export function StepOutcome({ outcome }: { outcome: StepPoint['outcome'] }) {
  const { mark, text } = OUTCOME_TEXT[outcome];
  return (
    <span className={`outcome outcome-${outcome}`}>
      <span aria-hidden="true">{mark}</span> {text}
    </span>
  );
}
