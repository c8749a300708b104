/**
 * Version policy invalid (docs/behaviour.md §9)
 *
 * The lifecycle of versions (`versions` on the root module) names versions some controller
 * declares, with dates that parse; only the root module declares it, so there is one policy.
 */
import { ROOT_MODULE } from '../../model/builtins.js';
import type { Rule } from '../rule.js';

const isDate = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text));

export const versionPolicyInvalid: Rule = (app, report) => {
  const versions = app.mounted.versions;
  const declared = new Set(versions);
  for (const policy of app.versionPolicies) {
    if (policy.module !== ROOT_MODULE) {
      report({
        message: `${policy.module} declares versions; only ${ROOT_MODULE} declares the lifecycle of versions, so move it there`,
        span: policy.span,
      });
      continue;
    }
    if (!declared.has(policy.version)) {
      report({
        message: `the versions policy names version '${policy.version}', which no mounted controller declares; declared versions: ${versions.join(', ') || 'none'}`,
        span: policy.span,
      });
    }
    const dates = [
      ['deprecated', typeof policy.deprecated === 'string' ? policy.deprecated : undefined, policy.deprecatedSpan],
      ['sunset', policy.sunset, policy.sunsetSpan],
    ] as const;
    for (const [name, value, span] of dates) {
      if (value !== undefined && !isDate(value))
        report({
          message: `${name} of version '${policy.version}' is ${JSON.stringify(value)}, not a date; write an ISO date such as '2027-06-30'`,
          span: span ?? policy.span,
        });
    }
  }
};
