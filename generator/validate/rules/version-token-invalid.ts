/**
 * Version token invalid (docs/behaviour.md §8, §9.1)
 *
 * Declared versions use the characters callers may send: alphanumerics, `.` and `-`, at most
 * 32 bytes (the runtime's own pattern, runtime/http/version-token.ts). A version that could never
 * be requested is refused here.
 */
import { VERSION_TOKEN } from '../../../runtime/http/version-token.js';
import type { Report } from '../../diagnostics/diagnostic.js';
import type { SourceSpan } from '../../model/types.js';
import type { Rule } from '../rule.js';

const check = (version: string, where: string, span: SourceSpan, report: Report): void => {
  if (VERSION_TOKEN.test(version)) return;
  const why =
    version.length === 0
      ? 'it is empty'
      : version.length > 32
        ? `it is ${version.length} bytes long`
        : 'it has characters other than letters, digits, "." and "-"';
  report({
    message: `${where} declares version ${JSON.stringify(version)}, which is not a valid version token (${why}); use alphanumerics, "." and "-", at most 32 bytes, for example '2' or '2024-06' or 'beta'`,
    span,
  });
};

export const versionTokenInvalid: Rule = (app, report) => {
  for (const controller of app.controllers) {
    for (const { version, span } of controller.versionTokens) check(version, controller.name, span, report);
    for (const route of controller.routes)
      for (const { version, span } of route.routeVersions ?? []) check(version, `${route.owner}.${route.methodName}`, span, report);
  }
  for (const gateway of app.gateways)
    if (gateway.version !== undefined) check(gateway.version, gateway.name, gateway.versionSpan ?? gateway.span, report);
};
