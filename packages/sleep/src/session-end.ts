/**
 * `@skillopt/sleep/session-end`: what an agent plugin's session-end hook runs. A hook script is
 * two lines, `import { runSessionEndHook } from '@skillopt/sleep/session-end'; await
 * runSessionEndHook('claude-code');`, and it runs as every session closes, so this entry loads
 * zod and a few small modules (the record, the state directory's name, the line reader) and none
 * of the harvest's sources, the checkpoint store, @skillopt/core or sql.js.
 */
export { type RecordSessionEndOptions, recordSessionEnd } from './session-end/record-session-end.js';
export { runSessionEndHook, type SessionEndHookOptions } from './session-end/session-end-hook.js';
export { readSessionEndRecords, type SessionEndRecords, type SessionEndRecordsOptions } from './session-end/session-end-log.js';
export { SESSION_END_LOG_FILE, SESSION_END_RECORD_FORMAT, type SessionEndRecord } from './session-end/session-end-record.js';
