import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** When a scheduled night starts, in the machine's local time: 03:17 unless told, away from the top of the hour when other jobs start. */
export interface ScheduleTime {
  hour: number;
  minute: number;
}

const DEFAULT_SCHEDULE_TIME: ScheduleTime = { hour: 3, minute: 17 };

function wholeNumberIn(name: string, value: number | string | undefined, fallback: number, highest: number): number {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  const number = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isInteger(number) && number >= 0 && number <= highest) return number;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `--${name} must be a whole number from 0 to ${highest}, got ${JSON.stringify(String(value))}. Nothing was scheduled.`,
  });
}

/** The `--hour` (0–23) and `--minute` (0–59) flags, as text from the command line or numbers, checked. */
export function scheduleTimeOf(flags: { hour?: number | string | undefined; minute?: number | string | undefined }): ScheduleTime {
  return {
    hour: wholeNumberIn('hour', flags.hour, DEFAULT_SCHEDULE_TIME.hour, 23),
    minute: wholeNumberIn('minute', flags.minute, DEFAULT_SCHEDULE_TIME.minute, 59),
  };
}

/** `03:17`. */
export function clockText(time: ScheduleTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}
