/**
 * All validation rules, keyed by rule id (the rule's file name), and the one pass that runs
 * them over the resolved model. Every rule runs; every finding is collected and sorted
 * (docs/architecture.md §1).
 */
import { compareDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { ResolvedApp } from '../model/model.js';
import type { Rule } from './rule.js';
import { abilitiesMissing } from './rules/abilities-missing.js';
import { abilityActionUnknown } from './rules/ability-action-unknown.js';
import { abilitySubjectUnknown } from './rules/ability-subject-unknown.js';
import { abilityRuleUnreadable } from './rules/ability-rule-unreadable.js';
import { abilityFieldUnknown } from './rules/ability-field-unknown.js';
import { abilityConditionUnknown } from './rules/ability-condition-unknown.js';
import { abilityConditionUntranslatable } from './rules/ability-condition-untranslatable.js';
import { apiTextEmpty } from './rules/api-text-empty.js';
import { appModuleMissing } from './rules/app-module-missing.js';
import { classNotExported } from './rules/class-not-exported.js';
import { complexityExpressionInvalid } from './rules/complexity-expression-invalid.js';
import { cronExpressionInvalid } from './rules/cron-expression-invalid.js';
import { cronTaskDuplicate } from './rules/cron-task-duplicate.js';
import { decoratorArgumentInvalid } from './rules/decorator-argument-invalid.js';
import { decoratorArgumentMissing } from './rules/decorator-argument-missing.js';
import { decoratorMisplaced } from './rules/decorator-misplaced.js';
import { decoratorOptionUnknown } from './rules/decorator-option-unknown.js';
import { decoratorUnknown } from './rules/decorator-unknown.js';
import { deprecationConflict } from './rules/deprecation-conflict.js';
import { deprecationUnseen } from './rules/deprecation-unseen.js';
import { entityColumnDuplicate } from './rules/entity-column-duplicate.js';
import { entityCompositePrimaryKey } from './rules/entity-composite-primary-key.js';
import { entityPrimaryKeyMissing } from './rules/entity-primary-key-missing.js';
import { entityPrimaryKeyNullable } from './rules/entity-primary-key-nullable.js';
import { fieldResolverTypeMissing } from './rules/field-resolver-type-missing.js';
import { guardMissing } from './rules/guard-missing.js';
import { guardModuleMissing } from './rules/guard-module-missing.js';
import { guardUnknown } from './rules/guard-unknown.js';
import { importModuleMissing } from './rules/import-module-missing.js';
import { importNameUnknown } from './rules/import-name-unknown.js';
import { jobHandlerDuplicate } from './rules/job-handler-duplicate.js';
import { listenerEventUnknown } from './rules/listener-event-unknown.js';
import { loaderScopeMissing } from './rules/loader-scope-missing.js';
import { mcpHostDuplicate } from './rules/mcp-host-duplicate.js';
import { mcpHostPathInvalid } from './rules/mcp-host-path-invalid.js';
import { mcpToolNameDuplicate } from './rules/mcp-tool-name-duplicate.js';
import { mcpToolNameInvalid } from './rules/mcp-tool-name-invalid.js';
import { mcpToolNotOperation } from './rules/mcp-tool-not-operation.js';
import { moduleEntryUnknown } from './rules/module-entry-unknown.js';
import { operationFieldDuplicate } from './rules/operation-field-duplicate.js';
import { operationPostureConflict } from './rules/operation-posture-conflict.js';
import { operationPostureMissing } from './rules/operation-posture-missing.js';
import { operationSignature } from './rules/operation-signature.js';
import { postureActionUnknown } from './rules/posture-action-unknown.js';
import { postureSubjectUnknown } from './rules/posture-subject-unknown.js';
import { providerDependencyCycle } from './rules/provider-dependency-cycle.js';
import { providerDependencyUnresolved } from './rules/provider-dependency-unresolved.js';
import { providerUnmounted } from './rules/provider-unmounted.js';
import { queueNameInvalid } from './rules/queue-name-invalid.js';
import { queueUnknown } from './rules/queue-unknown.js';
import { relationAmbiguousVia } from './rules/relation-ambiguous-via.js';
import { relationColumnUnknown } from './rules/relation-column-unknown.js';
import { relationKeyMissing } from './rules/relation-key-missing.js';
import { relationTargetHidden } from './rules/relation-target-hidden.js';
import { relationTargetUnknown } from './rules/relation-target-unknown.js';
import { relationTargetWithoutId } from './rules/relation-target-without-id.js';
import { relationViaOnBelongsTo } from './rules/relation-via-on-belongs-to.js';
import { relationViaUnknown } from './rules/relation-via-unknown.js';
import { resolverEntityUnknown } from './rules/resolver-entity-unknown.js';
import { resourceEntityUnsupported } from './rules/resource-entity-unsupported.js';
import { resourceOperationClash } from './rules/resource-operation-clash.js';
import { resourceOperationUnknown } from './rules/resource-operation-unknown.js';
import { resourcePublicNotGenerated } from './rules/resource-public-not-generated.js';
import { routeDuplicate } from './rules/route-duplicate.js';
import { routeListPagination } from './rules/route-list-pagination.js';
import { routePathInvalid } from './rules/route-path-invalid.js';
import { routePathParamMissing } from './rules/route-path-param-missing.js';
import { routeVersionUndeclared } from './rules/route-version-undeclared.js';
import { subscriptionItemParameter } from './rules/subscription-item-parameter.js';
import { typeUnsupported } from './rules/type-unsupported.js';
import { unscopedInRequest } from './rules/unscoped-in-request.js';
import { versionOnUnversionedTransport } from './rules/version-on-unversioned-transport.js';
import { versionPolicyInvalid } from './rules/version-policy-invalid.js';
import { versionTokenInvalid } from './rules/version-token-invalid.js';

/** Every rule, by id. The id is the rule's file name under `rules/`. */
export const RULES: Readonly<Record<string, Rule>> = {
  'abilities-missing': abilitiesMissing,
  'ability-action-unknown': abilityActionUnknown,
  'ability-subject-unknown': abilitySubjectUnknown,
  'ability-rule-unreadable': abilityRuleUnreadable,
  'ability-field-unknown': abilityFieldUnknown,
  'ability-condition-unknown': abilityConditionUnknown,
  'ability-condition-untranslatable': abilityConditionUntranslatable,
  'api-text-empty': apiTextEmpty,
  'app-module-missing': appModuleMissing,
  'class-not-exported': classNotExported,
  'complexity-expression-invalid': complexityExpressionInvalid,
  'cron-expression-invalid': cronExpressionInvalid,
  'cron-task-duplicate': cronTaskDuplicate,
  'decorator-argument-invalid': decoratorArgumentInvalid,
  'decorator-argument-missing': decoratorArgumentMissing,
  'decorator-misplaced': decoratorMisplaced,
  'decorator-option-unknown': decoratorOptionUnknown,
  'decorator-unknown': decoratorUnknown,
  'deprecation-conflict': deprecationConflict,
  'deprecation-unseen': deprecationUnseen,
  'entity-column-duplicate': entityColumnDuplicate,
  'entity-composite-primary-key': entityCompositePrimaryKey,
  'entity-primary-key-missing': entityPrimaryKeyMissing,
  'entity-primary-key-nullable': entityPrimaryKeyNullable,
  'field-resolver-type-missing': fieldResolverTypeMissing,
  'guard-missing': guardMissing,
  'guard-module-missing': guardModuleMissing,
  'guard-unknown': guardUnknown,
  'import-module-missing': importModuleMissing,
  'import-name-unknown': importNameUnknown,
  'job-handler-duplicate': jobHandlerDuplicate,
  'listener-event-unknown': listenerEventUnknown,
  'loader-scope-missing': loaderScopeMissing,
  'mcp-host-duplicate': mcpHostDuplicate,
  'mcp-host-path-invalid': mcpHostPathInvalid,
  'mcp-tool-name-duplicate': mcpToolNameDuplicate,
  'mcp-tool-name-invalid': mcpToolNameInvalid,
  'mcp-tool-not-operation': mcpToolNotOperation,
  'module-entry-unknown': moduleEntryUnknown,
  'operation-field-duplicate': operationFieldDuplicate,
  'operation-posture-conflict': operationPostureConflict,
  'operation-posture-missing': operationPostureMissing,
  'operation-signature': operationSignature,
  'posture-action-unknown': postureActionUnknown,
  'posture-subject-unknown': postureSubjectUnknown,
  'provider-dependency-cycle': providerDependencyCycle,
  'provider-dependency-unresolved': providerDependencyUnresolved,
  'provider-unmounted': providerUnmounted,
  'queue-name-invalid': queueNameInvalid,
  'queue-unknown': queueUnknown,
  'relation-ambiguous-via': relationAmbiguousVia,
  'relation-column-unknown': relationColumnUnknown,
  'relation-key-missing': relationKeyMissing,
  'relation-target-hidden': relationTargetHidden,
  'relation-target-unknown': relationTargetUnknown,
  'relation-target-without-id': relationTargetWithoutId,
  'relation-via-on-belongs-to': relationViaOnBelongsTo,
  'relation-via-unknown': relationViaUnknown,
  'resolver-entity-unknown': resolverEntityUnknown,
  'resource-entity-unsupported': resourceEntityUnsupported,
  'resource-operation-clash': resourceOperationClash,
  'resource-operation-unknown': resourceOperationUnknown,
  'resource-public-not-generated': resourcePublicNotGenerated,
  'route-duplicate': routeDuplicate,
  'route-list-pagination': routeListPagination,
  'route-path-invalid': routePathInvalid,
  'route-path-param-missing': routePathParamMissing,
  'route-version-undeclared': routeVersionUndeclared,
  'subscription-item-parameter': subscriptionItemParameter,
  'type-unsupported': typeUnsupported,
  'unscoped-in-request': unscopedInRequest,
  'version-on-unversioned-transport': versionOnUnversionedTransport,
  'version-policy-invalid': versionPolicyInvalid,
  'version-token-invalid': versionTokenInvalid,
};

/**
 * Runs every rule over the resolved model.
 *
 * Takes the {@link ResolvedApp}; returns every diagnostic, sorted by file, line, column, rule id.
 * Never throws on invalid declarations (rules report, they do not stop).
 */
export function validate(app: ResolvedApp): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [ruleId, rule] of Object.entries(RULES)) {
    rule(app, (finding) =>
      diagnostics.push({
        ruleId,
        severity: finding.severity ?? 'error',
        message: finding.message,
        span: finding.span,
        ...(finding.related ? { related: finding.related } : {}),
      }),
    );
  }
  return diagnostics.sort(compareDiagnostics);
}
