import { diagnoseTrajectory } from '../src/prompt-reading';
import { diagnoseSleepTrajectory, isSleepTrajectory } from '../src/sleep-diagnosis';

// Reading a failed Sleep trajectory from its reply and reference alone.

const sleep = (prediction: string, reference?: string) => ({ taskType: 'sleep', prediction, ...(reference === undefined ? {} : { reference }) });

describe('the diagnosis of a failed Sleep trajectory', () => {
  it('knows a Sleep trajectory by its task type', () => {
    expect(isSleepTrajectory({ taskType: 'sleep' })).toBe(true);
    expect(isSleepTrajectory({ taskType: 'qa' })).toBe(false);
    expect(isSleepTrajectory({})).toBe(false);
  });

  it('sees a bare arXiv id where the reference has the prefix', () => {
    expect(diagnoseSleepTrajectory(sleep('Here is the result. <answer>1706.03762</answer>', 'arXiv:1706.03762'))).toEqual(['bare-arxiv-id']);
    expect(diagnoseSleepTrajectory(sleep('Here is the result. <answer>arXiv:1706.03762</answer>', 'arXiv:1706.03762'))).toEqual([]);
    expect(diagnoseSleepTrajectory(sleep('Here is the result. <answer>1706.037</answer>', 'arXiv:1706.03762'))).toEqual([]);
  });

  it('sees a past-tense subject where the reference is imperative', () => {
    expect(diagnoseSleepTrajectory(sleep('Added login form', 'Add login form'))).toEqual(['past-tense-commit']);
    expect(diagnoseSleepTrajectory(sleep('Updated README', 'Update README'))).toEqual(['past-tense-commit']);
    expect(diagnoseSleepTrajectory(sleep('Add login form', 'Add login form'))).toEqual([]);
    expect(diagnoseSleepTrajectory(sleep('Wrote a form for logging in', 'Add login form'))).toEqual([]);
  });

  it('sees an unwrapped answer by the habit marker, and both habits together', () => {
    expect(diagnoseSleepTrajectory(sleep('Answer: 1706.03762', 'arXiv:1706.03762'))).toEqual(['bare-arxiv-id', 'missing-tag']);
    expect(diagnoseSleepTrajectory(sleep('Answer: arXiv:1706.03762', 'arXiv:1706.03762'))).toEqual(['missing-tag']);
    // No marker: a reply that did not need tags is no wrap failure.
    expect(diagnoseSleepTrajectory(sleep('arXiv:1706.03762 is the id', 'arXiv:1706.03762'))).toEqual([]);
  });

  it('sees nothing in a reply that is simply wrong or has no reference to compare', () => {
    expect(
      diagnoseSleepTrajectory(sleep('I will answer this my own way and leave the requested format aside.', 'an-answer-that-the-harmful-rule-cannot-produce')),
    ).toEqual([]);
    expect(diagnoseSleepTrajectory(sleep('Added login form'))).toEqual([]);
  });

  it('reads what a failed contains check wanted when the task has no reference (a task mined with rule checks)', () => {
    const failed = (prediction: string, failureReason: string) => ({ taskType: 'sleep', prediction, failureReason });
    expect(diagnoseSleepTrajectory(failed('Answer: 1706.03762', 'failed: contains=arXiv:1706.03762, no_refusal'))).toEqual(['bare-arxiv-id', 'missing-tag']);
    expect(diagnoseSleepTrajectory(failed('Added login form, as asked', 'failed: contains=Add login form, as asked'))).toEqual(['past-tense-commit']);
    // A check that wanted the text absent says nothing of what the reply should hold.
    expect(diagnoseSleepTrajectory(failed('Here is 1706.03762', 'failed: not_contains=arXiv:1706.03762'))).toEqual([]);
    expect(diagnoseSleepTrajectory(failed('Here is 1706.03762', 'all checks passed'))).toEqual([]);
  });

  it('is what the optimizer reads for a trajectory of task type sleep (not the answer classes)', () => {
    expect(diagnoseTrajectory(sleep('Added login form', 'Add login form'))).toEqual(['past-tense-commit']);
    // The same reply in a QA trajectory reads as a missing answer tag instead.
    expect(diagnoseTrajectory({ prediction: 'Added login form', reply: 'Added login form', reference: 'Add login form' })).toEqual(['missing-tag']);
  });
});
