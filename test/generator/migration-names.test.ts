/**
 * Migration names say what the SQL changes (docs/decisions.md §9; generator/emit/prisma/migration-name.ts):
 * the tables and columns created, altered and dropped, on scripts as Prisma's schema engine writes
 * them for SQLite and PostgreSQL, and on real diffs of the committed schemas.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeChanges, describeMigration, migrationChanges, splitStatements } from '../../generator/emit/prisma/migration-name.js';
import { planMigration } from '../../generator/emit/prisma/migrations.js';
import { ROOT } from '../support/project.js';

/** What the engine writes for a new `Comment` with keys to `Post` and `User`, on SQLite. */
const SQLITE_CREATE_COMMENT = `-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "postId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Comment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Comment_postId_id_idx" ON "Comment"("postId", "id");
`;

/** The same on PostgreSQL: keys added by ALTER TABLE after the table. */
const POSTGRES_CREATE_COMMENT = `-- CreateTable
CREATE TABLE "Comment" (
    "id" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Comment_postId_id_idx" ON "Comment"("postId", "id");

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
`;

/** The previous definition of `Post`, as the previous schema's full script has it (SQLite). */
const SQLITE_PREVIOUS = `-- CreateTable
CREATE TABLE "Post" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "authorId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "publishedAt" DATETIME,
    CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Post_authorId_id_idx" ON "Post"("authorId", "id");
`;

/** A SQLite redefinition of `Post` whose new definition is `columns` (the engine's way to change most columns). */
function sqliteRedefinition(
  columns: string,
  constraint = `CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE`,
): string {
  return `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Post" (
${columns},
    ${constraint}
);
INSERT INTO "new_Post" ("authorId", "id", "title") SELECT "authorId", "id", "title" FROM "Post";
DROP TABLE "Post";
ALTER TABLE "new_Post" RENAME TO "Post";
CREATE INDEX "Post_authorId_id_idx" ON "Post"("authorId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`;
}

describe('migration names from SQL (docs/decisions.md §9)', () => {
  it('names a new table after the table, not the models whose back-relations changed', () => {
    expect(describeMigration(SQLITE_CREATE_COMMENT)).toBe('create_comment');
    expect(describeMigration(POSTGRES_CREATE_COMMENT)).toBe('create_comment');
  });

  it('names added, dropped and altered columns with their table, on both databases', () => {
    expect(describeMigration('-- AlterTable\nALTER TABLE "Post" ADD COLUMN "summary" TEXT;\n')).toBe('add_post_summary');
    expect(
      describeMigration('-- AlterTable\nALTER TABLE "Post" ADD COLUMN     "summary" TEXT,\nADD COLUMN     "readingTime" INTEGER;\n'),
    ).toBe('add_post_summary_reading_time');
    expect(describeMigration('-- AlterTable\nALTER TABLE "Post" DROP COLUMN "publishedAt";\n')).toBe('drop_post_published_at');
    expect(describeMigration('-- AlterTable\nALTER TABLE "Post" ALTER COLUMN "title" DROP NOT NULL;\n')).toBe('alter_post_title');
    expect(describeMigration('-- AlterTable\nALTER TABLE "Post" DROP COLUMN "publishedAt",\nADD COLUMN     "slug" TEXT NOT NULL;\n')).toBe(
      'add_post_slug_drop_post_published_at',
    );
  });

  it('names a new relation column once, though PostgreSQL also adds its foreign key and index', () => {
    const script = `-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "categoryId" UUID;

-- CreateIndex
CREATE INDEX "Post_categoryId_id_idx" ON "Post"("categoryId", "id");

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category"("id") ON DELETE SET NULL ON UPDATE CASCADE;
`;
    expect(describeMigration(script)).toBe('add_post_category_id');
  });

  it('reads a SQLite redefinition against the previous definition: added, dropped, altered columns', () => {
    const kept = `    "id" TEXT NOT NULL PRIMARY KEY,\n    "authorId" TEXT NOT NULL`;
    expect(
      describeMigration(
        sqliteRedefinition(`${kept},\n    "title" TEXT NOT NULL,\n    "publishedAt" DATETIME,\n    "slug" TEXT NOT NULL`),
        SQLITE_PREVIOUS,
      ),
    ).toBe('add_post_slug');
    expect(describeMigration(sqliteRedefinition(`${kept},\n    "title" TEXT NOT NULL`), SQLITE_PREVIOUS)).toBe('drop_post_published_at');
    expect(describeMigration(sqliteRedefinition(`${kept},\n    "title" TEXT,\n    "publishedAt" DATETIME`), SQLITE_PREVIOUS)).toBe(
      'alter_post_title',
    );
    // A changed foreign key names its column.
    const cascade = `CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE`;
    expect(
      describeMigration(sqliteRedefinition(`${kept},\n    "title" TEXT NOT NULL,\n    "publishedAt" DATETIME`, cascade), SQLITE_PREVIOUS),
    ).toBe('alter_post_author_id');
    // Without the previous definition, the table is what it can name; never the indexes it re-creates.
    expect(describeMigration(sqliteRedefinition(`${kept},\n    "title" TEXT NOT NULL`))).toBe('alter_post');
  });

  it('names dropped tables, not the foreign keys dropped with them', () => {
    expect(
      describeMigration(
        '-- DropForeignKey\nALTER TABLE "Digest" DROP CONSTRAINT "Digest_orgId_fkey";\n\n-- DropTable\nDROP TABLE "Digest";\n',
      ),
    ).toBe('drop_digest');
    expect(describeMigration('-- DropTable\nPRAGMA foreign_keys=off;\nDROP TABLE "Digest";\nPRAGMA foreign_keys=on;\n')).toBe(
      'drop_digest',
    );
  });

  it('names index changes on tables nothing else touched', () => {
    expect(describeMigration('-- CreateIndex\nCREATE INDEX "Post_status_id_idx" ON "Post"("status", "id");\n')).toBe(
      'index_post_status_id',
    );
    expect(describeMigration('-- CreateIndex\nCREATE UNIQUE INDEX "Post_orgId_title_key" ON "Post"("orgId", "title");\n')).toBe(
      'unique_post_org_id_title',
    );
    expect(describeMigration('-- DropIndex\nDROP INDEX "Post_status_id_idx";\n')).toBe('drop_index_post_status_id');
    // Dropping a column drops its index: the column is what changed.
    expect(
      describeMigration('-- DropIndex\nDROP INDEX "Post_status_id_idx";\n\n-- AlterTable\nALTER TABLE "Post" DROP COLUMN "status";\n'),
    ).toBe('drop_post_status');
  });

  it('names enum changes only when no table changes (an enum column is named by its column)', () => {
    expect(describeMigration(`-- AlterEnum\nALTER TYPE "PostStatus" ADD VALUE 'archived';\n`)).toBe('alter_enum_post_status');
    expect(
      describeMigration(
        `-- CreateEnum\nCREATE TYPE "Kind" AS ENUM ('a', 'b');\n\n-- AlterTable\nALTER TABLE "Post" ADD COLUMN     "kind" "Kind" NOT NULL DEFAULT 'a';\n`,
      ),
    ).toBe('add_post_kind');
    const replaced = `-- AlterEnum
BEGIN;
CREATE TYPE "PostStatus_new" AS ENUM ('draft', 'published');
ALTER TABLE "Post" ALTER COLUMN "status" TYPE "PostStatus_new" USING ("status"::text::"PostStatus_new");
ALTER TYPE "PostStatus" RENAME TO "PostStatus_old";
ALTER TYPE "PostStatus_new" RENAME TO "PostStatus";
DROP TYPE "PostStatus_old";
COMMIT;
`;
    expect(describeMigration(replaced)).toBe('alter_post_status');
  });

  it('keeps long names within 60 characters, counting what it leaves out', () => {
    const script = ['AuditRecord', 'Digest', 'Notification', 'Subscription', 'Attachment']
      .map((table) => `CREATE TABLE "${table}" ("id" TEXT NOT NULL PRIMARY KEY);`)
      .join('\n');
    const name = describeMigration(script);
    expect(name).toBe('create_audit_record_create_digest_and_3_more');
    expect(name.length).toBeLessThanOrEqual(60);
    expect(describeChanges([])).toBe('update');
  });

  it('splits statements at semicolons outside quotes and comments, and never throws on other SQL', () => {
    expect(splitStatements(`-- a; comment\nALTER TABLE "a;b" ADD COLUMN "c" TEXT DEFAULT 'x;y';\n/* warnings; */ DROP TABLE "d";`)).toEqual(
      [`ALTER TABLE "a;b" ADD COLUMN "c" TEXT DEFAULT 'x;y'`, 'DROP TABLE "d"'],
    );
    expect(migrationChanges(`ALTER TABLE "a""q" ADD COLUMN "c" TEXT;`)).toEqual([{ kind: 'add_column', table: 'a"q', column: 'c' }]);
    for (const junk of ['', ';;;', 'SELECT 1;', 'CREATE TABLE', `'unterminated`, 'ALTER TABLE "x"', '/* open'])
      expect(() => describeMigration(junk)).not.toThrow();
    expect(describeMigration('SELECT 1;')).toBe('update');
  });
});

/** The committed Prisma schema of `database`. */
function committedSchema(database: 'sqlite' | 'postgresql'): string {
  return readFileSync(path.join(ROOT, `generated/prisma/${database}/schema.prisma`), 'utf8');
}

describe('migration names of real diffs (the schema engine writing the SQL)', () => {
  for (const database of ['sqlite', 'postgresql'] as const) {
    it(`names what changed on ${database}: a new model with relations, a new required column, a dropped column`, async () => {
      const previous = committedSchema(database);
      const key = database === 'postgresql' ? ' @db.Uuid' : '';
      const withBookmark = previous
        .replace(
          'model Org {',
          `model Bookmark {\n  id     String @id @default(uuid(7))${key}\n  postId String${key}\n  note   String\n  post   Post   @relation("BookmarkPost", fields: [postId], references: [id])\n\n  @@index([postId, id])\n}\n\nmodel Org {`,
        )
        .replace(
          /( {2}notificationPostInverse +Notification\[\] +@relation\("NotificationPost"\)\n)/,
          '$1  bookmarks Bookmark[] @relation("BookmarkPost")\n',
        );
      expect(withBookmark).toContain('bookmarks Bookmark[]');
      expect((await planMigration(previous, withBookmark, []))?.name).toBe('0001_create_bookmark');
      const withSlug = previous.replace(/(model Post \{[\s\S]*?)( {2}createdAt)/, '$1  slug String\n$2');
      expect((await planMigration(previous, withSlug, [{ name: '0001_init', script: '' }]))?.name).toBe('0002_add_post_slug');
      const withoutPublishedAt = previous.replace(/(model Post \{[\s\S]*?) {2}publishedAt[^\n]*\n/, '$1');
      expect(withoutPublishedAt).not.toContain('publishedAt');
      expect((await planMigration(previous, withoutPublishedAt, []))?.name).toBe('0001_drop_post_published_at');
    });
  }
});
