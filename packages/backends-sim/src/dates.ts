/** Dates written with a month name, and the numeric forms a careless model writes instead. */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number;
}

const MONTH_PATTERN =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

function monthNumber(name: string): number {
  const prefix = name.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((month) => month.startsWith(prefix)) + 1;
}

/** `July 20, 1969` or `20 July 1969` → the date; anything else → undefined. */
export function parseWrittenDate(text: string): CalendarDate | undefined {
  const trimmed = text.trim();
  const monthFirst = new RegExp(`^${MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{3,4})$`, 'i').exec(trimmed);
  if (monthFirst) return checked(Number(monthFirst[3]), monthNumber(monthFirst[1] as string), Number(monthFirst[2]));
  const dayFirst = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_PATTERN},?\\s+(\\d{3,4})$`, 'i').exec(trimmed);
  if (dayFirst) return checked(Number(dayFirst[3]), monthNumber(dayFirst[2] as string), Number(dayFirst[1]));
  return undefined;
}

function checked(year: number, month: number, day: number): CalendarDate | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { year, month, day };
}

const pad = (value: number): string => String(value).padStart(2, '0');

export function isoDate(date: CalendarDate): string {
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

export function slashDate(date: CalendarDate): string {
  return `${pad(date.day)}/${pad(date.month)}/${date.year}`;
}

/** True when the text holds a date in an all-numeric form (ISO or with slashes). */
export function containsNumericDate(text: string): boolean {
  return /\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/.test(text);
}
