/**
 * The past tense of a commit subject's leading verb, as a careless writer puts it (`Add login form`
 * → `Added login form`): the simulated target's habit when no rule asks for the imperative mood.
 */

const IRREGULAR: Readonly<Record<string, string>> = {
  build: 'built',
  get: 'got',
  make: 'made',
  run: 'ran',
  write: 'wrote',
  split: 'split up',
  set: 'set up',
  put: 'put in',
};

function withCaseOf(model: string, word: string): string {
  if (model === model.toUpperCase() && model.length > 1) return word.toUpperCase();
  return /^[A-Z]/.test(model) ? `${word.charAt(0).toUpperCase()}${word.slice(1)}` : word;
}

/** The past tense of one English verb: irregulars from a short table, `e` takes `d`, a consonant's `y` takes `ied`. */
export function pastTense(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === '' || /ed$/.test(lower)) return verb;
  const irregular = IRREGULAR[lower];
  let past: string;
  if (irregular !== undefined) past = irregular;
  else if (lower.endsWith('e')) past = `${lower}d`;
  else if (/[^aeiou]y$/.test(lower)) past = `${lower.slice(0, -1)}ied`;
  // A short verb ending consonant-vowel-consonant doubles its last letter (stop → stopped), but not w, x or y.
  else if (lower.length <= 4 && /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(lower)) past = `${lower}${lower.slice(-1)}ed`;
  else past = `${lower}ed`;
  return withCaseOf(verb, past);
}

/** The subject with its first word in the past tense; the rest unchanged. */
export function pastTenseSubject(subject: string): string {
  const match = /^(\s*)([A-Za-z]+)(.*)$/s.exec(subject);
  if (!match) return subject;
  return `${match[1]}${pastTense(match[2] as string)}${match[3]}`;
}
