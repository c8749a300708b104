/**
 * "Did you mean …?" suggestions for configuration variables and declaration names.
 */
import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `name` by edit distance, or undefined when none is close enough
 * (at most 2 edits, or a quarter of the name's length for long names). Ties keep input order.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** `"; did you mean X?"` for the closest candidate, or `""`. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closestMatch(name, candidates);
  return match ? `; did you mean ${match}?` : '';
}
