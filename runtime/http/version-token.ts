/**
 * The one version-token pattern (docs/behaviour.md §8, §9.3 rule 6): alphanumerics, `.` and `-`, at most 32
 * bytes. The runtime checks caller-sent versions and `APP_HTTP__DEFAULT_VERSION` against it; the
 * generator checks declared versions against it (rule `version-token-invalid`), so a version that
 * could never be requested is refused at build time.
 */

/** Valid version tokens: alphanumerics, `.` and `-`, at most 32 bytes. */
export const VERSION_TOKEN = /^[A-Za-z0-9.-]{1,32}$/;
