/**
 * `@skillopt/sleep/commands`: what `skillopt-sleep` accepts — its actions and each one's options —
 * without the engine behind it, for plugins' generated files, their parity checks and tool
 * schemas.
 */
export {
  MINER_NAMES,
  PERSONA_NAMES,
  SLEEP_ACTION_NAMES,
  SLEEP_ACTIONS,
  type SleepAction,
  type SleepActionName,
  type SleepOption,
  type SleepOptions,
  type SleepOptionValue,
  sleepActionOptions,
} from './command-line/sleep-actions.js';
