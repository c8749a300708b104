/**
 * "Did you mean …?" suggestions for configuration variables and declaration names.
 */
import { distance } from 'fastest-levenshtein';

/** Whether `short` is `long` with letters left out, starting with the same letter (`projId` of `projectId`). */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 3 || short.length >= long.length || short[0] !== long[0]) return false;
  let at = 0;
  for (const char of long) if (char === short[at]) at += 1;
  return at === short.length;
}

/**
 * The candidate closest to `name` by edit distance, or undefined when none is close enough
 * (at most 2 edits, or a quarter of the name's length for long names). Failing that, a candidate
 * `name` abbreviates (`projId` → `projectId`), the closest such. Ties keep input order. Letter case
 * is ignored throughout.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let abbreviated: string | undefined;
  let abbreviatedDistance = Number.POSITIVE_INFINITY;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    const candidateLower = candidate.toLowerCase();
    const d = distance(lower, candidateLower);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
    if (d < abbreviatedDistance && abbreviates(lower, candidateLower)) {
      abbreviated = candidate;
      abbreviatedDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : abbreviated;
}

/** `"; did you mean X?"` for the closest candidate, or `""`. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closestMatch(name, candidates);
  return match ? `; did you mean ${match}?` : '';
}
