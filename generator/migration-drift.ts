/**
 * The rule `migration-drift` (docs/decisions.md §11): the committed migration folders checked
 * against the checksums `generate` recorded when it wrote them. It reads the output folder, not the
 * resolved model, so it is one of the stage rules (generator/validate/rule.ts).
 */
import path from 'node:path';
import { CHECKSUMS_FILE, folderDrift } from '../runtime/data/migrations.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import { migrationsPath, schemaPath, SUPPORTED_DATABASES } from './paths.js';
import type { StageRuleId } from './validate/rule.js';

const MIGRATION_DRIFT: StageRuleId = 'migration-drift';

/**
 * Migration folders that differ from the checksums `generate` recorded when it wrote them
 * (docs/decisions.md §11): a deleted one is an error (the committed schema then describes what no
 * migration creates); an edited or hand-added one is an error unless `accept` records it.
 */
export function migrationDrift(outputDir: string, outputName: string, accept: boolean): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const database of SUPPORTED_DATABASES) {
    const folder = path.posix.join(outputName, migrationsPath(database));
    for (const drift of folderDrift(path.join(outputDir, migrationsPath(database)))) {
      const where = `${folder}/${drift.name}`;
      const span = { file: drift.kind === 'deleted' ? `${folder}/${CHECKSUMS_FILE}` : `${where}/migration.sql`, line: 1, column: 1 };
      if (drift.kind === 'deleted') {
        diagnostics.push({
          ruleId: MIGRATION_DRIFT,
          severity: 'error',
          span,
          message: `the migration ${where} was deleted after generate wrote it: ${path.posix.join(outputName, schemaPath(database))} still describes what it created, so a new database would lack it. Fix: restore it (\`git checkout -- ${where}\`); to change course, change the entities and generate a new migration`,
        });
      } else if (!accept) {
        diagnostics.push({
          ruleId: MIGRATION_DRIFT,
          severity: 'error',
          span,
          message:
            drift.kind === 'edited'
              ? `the migration ${where} was edited after generate wrote it (its checksum differs). Fix: restore it (\`git checkout -- ${where}/migration.sql\`); if you changed it on purpose and no database has applied it yet (or you will mark it with \`migrate resolve\`), pass --accept-edited-migrations to record it`
              : `the migration folder ${where} was not written by generate. Fix: remove it, or pass --accept-edited-migrations to record it as one of the migrations`,
        });
      }
    }
  }
  return diagnostics;
}
