/**
 * What no response body may ever contain (docs/behaviour.md §7, RELIABILITY.md §7): stack frames, source or install
 * paths, SQL, driver error names.
 */
export const LEAK =
  /\bat [\w.<>]+ \(|\.(ts|js):\d+|\/(work|home|root|tmp|usr)\/|node_modules|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|SQLITE_|prisma\./i;
