/**
 * Settings shared by the property suites (RELIABILITY.md): one seed and one case count for all of them,
 * fixed in CI and raised by `npm run soak`, and the figures each suite reports.
 */
import { appendFileSync } from 'node:fs';

/** The fast-check seed (`FUZZ_SEED`; fixed by default so CI is reproducible). */
export const PROPERTY_SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);

/** Cases per property (`FUZZ_RUNS`, default 150; the soak runs 2000). */
export const PROPERTY_RUNS = Number(process.env.FUZZ_RUNS ?? 150);

/** Appends one suite's figures as a JSON line to `FUZZ_REPORT` when set (the soak collects them). */
export function reportFigures(figures: Record<string, unknown>): void {
  if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(figures)}\n`);
}
