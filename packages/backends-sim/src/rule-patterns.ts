/** How a rule of a skill is recognised: keyword groups as regular expressions, read per sentence. */
export interface RulePattern {
  pattern: RegExp;
  /** When true, a negation earlier in the same clause (`never`, `not`, `rather than`) cancels it. */
  negatable: boolean;
}

/** A gap of up to `n` characters that crosses no clause boundary and no negation. */
export const gap = (n: number, extraStops: readonly string[] = []): string =>
  `(?:(?!\\b(?:not|never|no|rather|instead|without|avoid|unless|except${extraStops.map((word) => `|${word}`).join('')})\\b)[^.;,\\n]){0,${n}}`;

export const rule = (source: string, negatable = true): RulePattern => ({ pattern: new RegExp(source, 'gi'), negatable });
