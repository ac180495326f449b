/** Numbers written in words, both ways: the simulated target's "number in words" habit, and the optimizer's reading of it. */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Array<[number, string]> = [
  [1_000_000_000_000, 'trillion'],
  [1_000_000_000, 'billion'],
  [1_000_000, 'million'],
  [1_000, 'thousand'],
];

function underThousand(value: number): string {
  const parts: string[] = [];
  const hundreds = Math.floor(value / 100);
  const rest = value % 100;
  if (hundreds > 0) parts.push(`${ONES[hundreds]} hundred`);
  if (rest > 0) {
    if (hundreds > 0) parts.push('and');
    if (rest < 20) parts.push(ONES[rest] as string);
    else {
      const tens = TENS[Math.floor(rest / 10)] as string;
      parts.push(rest % 10 === 0 ? tens : `${tens}-${ONES[rest % 10]}`);
    }
  }
  return parts.join(' ');
}

/** `8` → `eight`, `1969` → `one thousand nine hundred and sixty-nine`, `3.5` → `three point five`. */
export function numberToWords(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value < 0) return `minus ${numberToWords(-value)}`;
  if (!Number.isInteger(value)) {
    const [whole, fraction = ''] = String(value).split('.');
    return `${numberToWords(Number(whole))} point ${[...fraction].map((digit) => ONES[Number(digit)]).join(' ')}`;
  }
  if (value < 1000) return value === 0 ? 'zero' : underThousand(value);
  const parts: string[] = [];
  let rest = value;
  for (const [scale, name] of SCALES) {
    if (rest >= scale) {
      parts.push(`${underThousand(Math.floor(rest / scale) % 1000)} ${name}`);
      rest %= scale;
    }
  }
  if (rest > 0) parts.push(rest < 100 ? `and ${underThousand(rest)}` : underThousand(rest));
  return parts.join(' ');
}

/** The number a digits string means (`1,234` and `3.5` included), or undefined. */
export function parseNumeral(text: string): number | undefined {
  const cleaned = text.trim().replace(/,(?=\d{3}\b)/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}

const WORD_VALUES = new Map<string, number>([
  ...ONES.map((word, index): [string, number] => [word, index]),
  ...TENS.map((word, index): [string, number] => [word, index * 10]).filter(([word]) => word !== ''),
]);
const MULTIPLIERS = new Map<string, number>([
  ['hundred', 100],
  ['thousand', 1_000],
  ['million', 1_000_000],
  ['billion', 1_000_000_000],
  ['trillion', 1_000_000_000_000],
]);

/** Every whole number written in words in `text` (`twenty-one`, `one hundred and five`). */
export function numbersInWords(text: string): number[] {
  const words = text
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim()
    .split(' ');
  const found: number[] = [];
  let total = 0;
  let current = 0;
  let inNumber = false;
  const flush = (): void => {
    if (inNumber) found.push(total + current);
    total = 0;
    current = 0;
    inNumber = false;
  };
  for (const word of words) {
    const value = WORD_VALUES.get(word);
    const multiplier = MULTIPLIERS.get(word);
    if (value !== undefined) {
      current += value;
      inNumber = true;
    } else if (multiplier !== undefined && inNumber) {
      if (multiplier === 100) current *= 100;
      else {
        total += current * multiplier;
        current = 0;
      }
    } else if (word === 'and' && inNumber) {
    } else flush();
  }
  flush();
  return found;
}
