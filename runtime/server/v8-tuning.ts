/**
 * The V8 settings the generated server runs with (docs/decisions.md §6, "No allocation-site
 * pretenuring" and "An old generation sized to what it holds"), set before the server allocates
 * anything of a request's.
 *
 * Pretenuring allocates objects of an allocation site straight into the old generation once enough
 * of them have survived a young collection. Under this server's load a request's objects often do
 * survive one (ten requests in flight), so their sites get pretenured: request-scoped objects then
 * land in the old generation, where they die late and point into the young one, and every young
 * collection scans and promotes what they hold. Whether a process falls into that depends on the
 * timing of its first seconds, so two processes of the same code settled at different rates
 * (BENCHMARKS.md §"Where the time goes").
 *
 * After each full collection V8 lets the old generation grow to up to four times what survived it
 * before the next. Requests waiting on PostgreSQL hold their objects across young collections, so
 * the old generation fills with the dead ones at megabytes a second, and the heap grew to about four
 * times the live data between full collections (BENCHMARKS.md §"Where the time goes"). The server caps the factor
 * at 1.5 (`--heap-growing-percent=50`).
 */
import v8 from 'node:v8';

/** The old generation's growth after a full collection, in percent of what survived it (V8's factor 1 + this / 100). */
const HEAP_GROWING_PERCENT = 50;

/** Whether V8 flag `flag` (`heap-growing-percent`) was given on this process's command line (Node refuses it in `NODE_OPTIONS`). */
function givenFlag(flag: string): boolean {
  const spellings = [`--${flag}`, `--${flag.replaceAll('-', '_')}`];
  return process.execArgv.some((argument) => spellings.some((spelling) => argument === spelling || argument.startsWith(`${spelling}=`)));
}

/**
 * Turns V8's allocation-site pretenuring off for this process, and sets the old generation's growth
 * after a full collection to {@link HEAP_GROWING_PERCENT} unless the process was started with its own
 * `--heap-growing-percent`; setting them again changes nothing. Takes and returns nothing; V8 reads
 * both flags at every collection, so they hold from the next one on. A Node release whose V8 lacks a
 * flag prints `unrecognized flag` on stderr and runs as before.
 */
export function tuneV8ForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  if (!givenFlag('heap-growing-percent')) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
