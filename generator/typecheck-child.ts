/**
 * The TypeScript check of `dev` and `generate --watch`, in a process of its own
 * (generator/typecheck.ts): a check takes seconds, and in the watching process it would hold back
 * the next regeneration. Takes the project layout as JSON in its first argument; sends the
 * declarations' type errors (as warnings) to its parent and exits.
 */
import type { ProjectLayout } from './parse/project.js';
import { listTypeScriptFiles } from './parse/project.js';
import { stalePrismaClients } from './emit/prisma/client.js';
import { checkDeclarationTypes } from './typecheck.js';

const layout = JSON.parse(process.argv[2] ?? '{}') as ProjectLayout;
// As in `generate --check`: without current Prisma clients the database's types are unknown.
const found =
  stalePrismaClients(layout.generatedDir).length > 0
    ? []
    : checkDeclarationTypes(layout, listTypeScriptFiles(layout.entitiesDir), 'warning');
process.send?.(found, () => process.exit(0));
