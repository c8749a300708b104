/**
 * The V8 setting the generated server runs with (docs/decisions.md §6, "No allocation-site
 * pretenuring"): V8's allocation-site pretenuring is turned off before the server allocates anything
 * of a request's.
 *
 * Pretenuring allocates objects of an allocation site straight into the old generation once enough
 * of them have survived a young collection. Under this server's load a request's objects often do
 * survive one (ten requests in flight), so their sites get pretenured: request-scoped objects then
 * land in the old generation, where they die late and point into the young one, and every young
 * collection scans and promotes what they hold. Whether a process falls into that depends on the
 * timing of its first seconds, so two processes of the same code settled at rates 5–15% apart.
 */
import v8 from 'node:v8';

/**
 * Turns V8's allocation-site pretenuring off for this process; setting it again changes nothing.
 * Takes and returns nothing; V8 reads the flag at every young collection, so it holds from the next
 * one on. A Node release whose V8 lacks the flag prints `unrecognized flag` on stderr and runs as before.
 */
export function tuneV8ForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
