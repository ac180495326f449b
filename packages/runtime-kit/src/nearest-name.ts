import { levenshteinDistance } from './levenshtein-distance.js';

/**
 * The candidate nearest to `name` by edit distance, for a "did you mean" in an error, or
 * undefined when none is close enough to be the one meant: at most a third of the name's length
 * (and at least one edit) away, ignoring case. Ties go to the earlier candidate.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const tolerance = Math.max(1, Math.floor(Array.from(wanted).length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = levenshteinDistance(wanted, candidate.toLowerCase());
    if (distance <= tolerance && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
