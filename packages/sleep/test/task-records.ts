import type { TaskRecord } from '../src/tasks/task-record.js';

/** A task record with every field at its empty default, and the fields a test cares about. */
export function taskRecord(fields: Partial<TaskRecord> & Pick<TaskRecord, 'id'>): TaskRecord {
  return {
    project: '/p',
    intent: `do ${fields.id}`,
    contextExcerpt: '',
    system: '',
    attemptedSolution: '',
    outcome: 'unknown',
    referenceKind: 'none',
    reference: '',
    tags: [],
    sourceSessions: [],
    split: 'train',
    origin: 'real',
    derivedFrom: '',
    skillHint: '',
    ...fields,
  };
}
