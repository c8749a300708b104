/**
 * The parsed project kept between runs of a watching process (docs/decisions.md §10;
 * generator/parse/project.ts): what it parses is what a fresh parse gives, after declaration
 * files change, appear and disappear.
 */
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { DeclarationProjectCache } from '../../generator/parse/project.js';
import { copyProject, editFile } from '../support/cli.js';
import { layoutAt } from '../support/project.js';

describe('the parsed project kept between runs (generator/parse/project.ts)', () => {
  it('gives what a fresh parse gives after files change, appear and disappear', () => {
    const project = copyProject();
    try {
      const layout = layoutAt(project);
      const cache = new DeclarationProjectCache();
      const same = (): void => {
        expect(JSON.stringify(parseDeclarations(layout, { cache }))).toBe(JSON.stringify(parseDeclarations(layout)));
      };
      same();
      editFile(project, 'entities/post.entity.ts', (text) =>
        text.replace(
          '  /** Set when the post is published. */',
          '  /** A one-line summary. */\n  @Column()\n  summary?: string | null;\n\n  /** Set when the post is published. */',
        ),
      );
      same();
      writeFileSync(
        path.join(project, 'entities/tag.entity.ts'),
        "import { Column, Entity, PrimaryKey } from 'resource-service';\n\n/** A tag. */\n@Entity()\nexport class Tag {\n  /** Key. */\n  @PrimaryKey()\n  id!: string;\n\n  /** Its name. */\n  @Column()\n  name!: string;\n}\n",
      );
      same();
      expect(parseDeclarations(layout, { cache }).classes.map((cls) => cls.name)).toContain('Tag');
      unlinkSync(path.join(project, 'entities/tag.entity.ts'));
      same();
      expect(parseDeclarations(layout, { cache }).classes.map((cls) => cls.name)).not.toContain('Tag');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);
});
