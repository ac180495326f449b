/**
 * SkillOpt-Sleep's model stages besides the optimizer's (a night's proposals go through the
 * optimizer's own stages): mining tasks from sessions, replaying a task with the current skill,
 * judging a replayed answer by a rubric. A stage's calls carry its name as their purpose, and the
 * simulated model recognises each.
 */
export const SLEEP_STAGES = ['judge', 'mine', 'replay'] as const;
export type SleepStage = (typeof SLEEP_STAGES)[number];

/**
 * Sleep's prompts and the stage each serves. The replay has two: to a chat model (the skill in the
 * system prompt) and to an agent harness (the skill installed as its instruction file, the request
 * in `task.md`).
 */
export const SLEEP_PROMPT_STAGES = {
  'mine-sessions': 'mine',
  'replay-chat': 'replay',
  'replay-agent': 'replay',
  'judge-rubric': 'judge',
} as const satisfies Record<string, SleepStage>;
export type SleepPrompt = keyof typeof SLEEP_PROMPT_STAGES;
