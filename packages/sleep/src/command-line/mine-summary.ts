import type { MineRunResult } from './mine-run.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * What `sleep mine` prints: what was mined, where the file is, and how to review it and pass it
 * back. `command` is how the user calls Sleep (`skillopt-sleep`, or `skillopt sleep` in the CLI).
 */
export function mineSummary(result: MineRunResult, command = 'skillopt-sleep'): string {
  const { bySplit } = result;
  const lines = [
    `Mined ${plural(result.tasks, 'task')} from ${plural(result.sessions, 'session')} of ${result.project}, ${result.harvest.window}.`,
    `  splits: ${bySplit.train} train, ${bySplit.val} validation, ${bySplit.test} test`,
  ];
  const calls = result.minerCalls;
  if (calls !== undefined) {
    const cost = calls.unpricedCalls > 0 ? `at least $${calls.costUsd.toFixed(4)} (${calls.unpricedCalls} unpriced)` : `$${calls.costUsd.toFixed(4)}`;
    lines.push(
      `  mined by ${result.miner === 'llm' ? 'the model' : 'the heuristic miner, the model having found no task'}${calls.simulated ? ' (SIMULATED: the simulated model, not a reading of your sessions)' : ''}: ${plural(calls.calls, 'call')}, ${cost}; ledger ${calls.ledgerFile}`,
    );
    for (const failure of calls.failures) lines.push(`  session ${failure.sessionId}: not mined, ${failure.reason}`);
  }
  if (result.needReference > 0)
    lines.push(
      `  ${plural(result.needReference, 'task')} ${result.needReference === 1 ? 'has' : 'have'} nothing to judge a replay by yet; a night leaves them out until you add it.`,
    );
  if (result.tasksFile === null)
    lines.push(
      `No task file was written: there was nothing to mine (\`${command} harvest\` shows what each source holds).`,
      calls === undefined ? 'Nothing was written and no checkpoint moved.' : "Only the miner's ledger was written; no checkpoint moved.",
    );
  else
    lines.push(
      `Task file: ${result.tasksFile}`,
      'Review it: give each task you want judged the answer you wanted ("referenceKind": "exact", "reference": "…"), a rubric ("referenceKind": "rubric"),',
      'or rule checks ("referenceKind": "rule", "judge": {"kind": "rule", "checks": [{"op": "contains", "arg": "…"}]}); set "reviewed": true; then run',
      `  ${command} dry-run --tasks ${result.tasksFile} --skill <your SKILL.md>`,
      calls === undefined ? 'Nothing else was written and no checkpoint moved.' : "Besides it only the miner's ledger was written; no checkpoint moved.",
    );
  return `${lines.join('\n')}\n`;
}
