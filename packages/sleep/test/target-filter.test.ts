import { taskRecord } from './task-records.js';
import { filterTasksForTarget, keywordTokens } from '../src/mine/target-filter.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

function task(intent: string): TaskRecord {
  return taskRecord({ id: intent, intent });
}

const skill = {
  path: '/home/dev/.claude/skills/helper/SKILL.md',
  text: '# MCP Setup Requests\nAsk for the docs.\n\n# Local Git Conflicts\nKeep both sides.\n',
};

describe('filterTasksForTarget', () => {
  it('keeps the MCP and Git tasks and drops SwiftUI and Rails ones (spec vector), ranked by hits', () => {
    const tasks = ['build a SwiftUI list view', 'configure an MCP server from docs', 'add a Rails migration for users', 'resolve a local Git conflict'].map(
      task,
    );
    expect(filterTasksForTarget(tasks, skill).map((entry) => entry.intent)).toEqual(['resolve a local Git conflict', 'configure an MCP server from docs']);
  });

  it('returns every task unchanged when none matches', () => {
    const tasks = [task('build a SwiftUI list view'), task('add a Rails migration')];
    expect(filterTasksForTarget(tasks, skill)).toEqual(tasks);
  });

  it('tokenises snake_case and dotted names into their parts, without numbers or stop words', () => {
    expect(keywordTokens('Run the git_merge_tool on v2.10 with 123')).toEqual(['run', 'git', 'merge', 'tool']);
  });
});
