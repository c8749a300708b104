/**
 * Deprecated fields (docs/behaviour.md §2.7): `deprecationReason` on a column, a relation or a
 * computed field, and a docstring's `@deprecated` tag (on those and on operations), reach the SDL
 * (`@deprecated(reason:)`), the OpenAPI documents (`deprecated: true`, the reason in the
 * description), the MCP tools' output schemas and both typed clients (`@deprecated` JSDoc); a
 * resource's optional input fields and filters on such a column are deprecated with it. Once the
 * committed SDL marks something deprecated, removing it is no breaking change; removing what it
 * does not mark stays one. The fixture is test/fixtures/deprecation.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, findBreakingChanges, validateSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { generate, planOutput } from '../../generator/pipeline.js';
import { releasedSchema } from '../../generator/retired-fields.js';
import { ROOT, scratchDir } from '../support/project.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/deprecation');

/** The layout of a fixture application whose declarations are the files of `root` itself. */
const layoutOf = (root: string) => ({
  root,
  entitiesDir: root,
  runtimeDir: path.join(ROOT, 'runtime'),
  generatedDir: path.join(root, 'generated'),
});

type Schema = { deprecated?: boolean; description?: string; properties?: Record<string, Schema> };
type Document = {
  paths: Record<string, Record<string, { parameters?: { name: string; deprecated?: boolean; description?: string }[] }>>;
  components: { schemas: Record<string, Schema> };
};

describe('a deprecated field on the wire', async () => {
  const plan = await planOutput(layoutOf(FIXTURE));
  const file = (name: string): string => plan.files.find((candidate) => candidate.path === name)?.content ?? '';
  const sdl = file('schema.graphql');

  it('generates without diagnostics', () => {
    expect(plan.diagnostics.map(formatHeadline)).toEqual([]);
  });

  it('marks columns, relations, computed fields and operations @deprecated(reason:) in the SDL', () => {
    // The option and the tag say the same; the tag's inline link is written as its text.
    expect(sdl).toContain('  """The title as first printed."""\n  title: String! @deprecated(reason: "Use heading.")\n');
    expect(sdl).toContain(
      '  shelfCode: String @deprecated(reason: "Shelves have ids now.")\n  shelf: Shelf @deprecated(reason: "Read shelfId.")\n',
    );
    expect(sdl).toContain('  books(first: Int, after: String): BookConnection! @deprecated(reason: "List books by shelfId.")\n');
    expect(sdl).toContain('  loudTitle: String! @deprecated(reason: "Capitalise heading instead.")\n');
    // A tag on a @Query method is its deprecationReason; the tag stays out of the description.
    expect(sdl).toContain('  """One book by id."""\n  bookById(id: String!): Book @deprecated(reason: "Use book.")\n');
    expect(sdl).not.toContain('@deprecated Use');
    expect(sdl.match(/@deprecated/g)).toHaveLength(10);
  });

  it("deprecates a resource's filter and optional input fields with the column, never a required one", () => {
    expect(sdl).toContain('books(first: Int, after: String, shelfCode: String @deprecated(reason: "Shelves have ids now.")): [Book!]!');
    const schema = buildSchema(sdl);
    // What the server builds from the SDL is valid: no required input field or argument is deprecated.
    expect(validateSchema(schema).map((error) => error.message)).toEqual([]);
    const fields = (input: string) => {
      const type = schema.getType(input);
      return type && 'getFields' in type ? type.getFields() : {};
    };
    // GraphQL cannot deprecate a required input field: a caller creating a book still sends a title.
    expect(fields('CreateBookInput').title?.deprecationReason).toBeUndefined();
    expect(fields('CreateBookInput').shelfCode?.deprecationReason).toBe('Shelves have ids now.');
    expect(fields('UpdateBookInput').title?.deprecationReason).toBe('Use heading.');
    expect(fields('UpdateBookInput').heading?.deprecationReason).toBeUndefined();
  });

  it('marks the OpenAPI schema properties and parameters deprecated: true, with the reason in the description', () => {
    const document = JSON.parse(file('openapi/v1.json')) as Document;
    const { Book, CreateBookInput, UpdateBookInput } = document.components.schemas;
    expect(Book?.properties?.title).toMatchObject({
      deprecated: true,
      description: 'The title as first printed.\n\nDeprecated: Use heading.',
    });
    expect(Book?.properties?.shelfCode).toMatchObject({
      deprecated: true,
      description: 'The old shelf code.\n\nDeprecated: Shelves have ids now.',
    });
    expect(Book?.properties?.heading?.deprecated).toBeUndefined();
    expect(CreateBookInput?.properties?.title?.deprecated).toBeUndefined();
    expect(UpdateBookInput?.properties?.title?.deprecated).toBe(true);
    expect(document.paths['/v1/books']?.get?.parameters?.find((parameter) => parameter.name === 'shelfCode')).toMatchObject({
      deprecated: true,
      description: 'Deprecated: Shelves have ids now.',
    });
  });

  it("says so in the MCP tool's output schema", () => {
    expect(file('mcp.ts')).toContain('"description": "The title as first printed.\\n\\nDeprecated: Use heading.",\n');
    expect(file('mcp.ts')).toMatch(/"description": "The title as first printed\.\\n\\nDeprecated: Use heading\.",\n\s*"deprecated": true/);
  });

  it('gives the deprecated properties a @deprecated JSDoc in both typed clients', () => {
    const rest = file('client/v1.ts');
    expect(rest).toMatch(
      /\/\*\*\n\s*\* @deprecated\n\s*\* @description The title as first printed\.\n\s*\*\n\s*\* {5}Deprecated: Use heading\.\n\s*\*\/\n\s*title: string;/,
    );
    const graphql = file('client/graphql.ts');
    expect(graphql).toContain(
      'export interface Book {\n  id: string;\n  shelfId: string;\n  /**\n   * The title as first printed.\n   *\n   * @deprecated Use heading.\n   */\n  title: string;\n',
    );
    expect(graphql).toContain(
      '  /**\n   * The title in capitals.\n   *\n   * @deprecated Capitalise heading instead.\n   */\n  loudTitle: string;\n',
    );
    expect(graphql).toContain(' * @deprecated Use book.\n');
  });
});

describe('the breaking-change check after a deprecation', () => {
  const removed = (previous: string, next: string) => {
    const after = buildSchema(next);
    const { schema, retired } = releasedSchema(previous, after);
    return { breaking: findBreakingChanges(schema, after).map((change) => change.description), retired };
  };

  it('retires the fields, input fields, arguments and enum values the committed schema deprecated', () => {
    const previous = `
      type Query { books(status: Status, code: String @deprecated(reason: "Gone."), page: Int): [Book!]! }
      type Book { id: ID! title: String! @deprecated(reason: "Use heading.") heading: String! legacy: String @deprecated }
      input BookInput { title: String @deprecated(reason: "Use heading.") heading: String }
      enum Status { OPEN SHUT @deprecated(reason: "Use CLOSED.") CLOSED }
      type Mutation { add(input: BookInput): Book }
    `;
    const next = `
      type Query { books(status: Status, page: Int): [Book!]! }
      type Book { id: ID! heading: String! }
      input BookInput { heading: String }
      enum Status { OPEN CLOSED }
      type Mutation { add(input: BookInput): Book }
    `;
    expect(removed(previous, next)).toEqual({
      breaking: [],
      retired: [
        { kind: 'ARG', coordinate: 'Query.books(code:)', reason: 'Gone.' },
        { kind: 'FIELD', coordinate: 'Book.title', reason: 'Use heading.' },
        { kind: 'FIELD', coordinate: 'Book.legacy', reason: 'No longer supported' },
        { kind: 'FIELD', coordinate: 'BookInput.title', reason: 'Use heading.' },
        { kind: 'VALUE', coordinate: 'Status.SHUT', reason: 'Use CLOSED.' },
      ],
    });
  });

  it('lets the types only retired fields returned go with them: a connection and its edge, a Mutation of deprecated fields', () => {
    const previous = `
      type Query { shelf: Shelf }
      type Shelf { id: ID! books: BookConnection! @deprecated(reason: "List books by shelfId.") }
      type Book { id: ID! }
      type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! }
      type BookEdge { node: Book! }
      type PageInfo { hasNextPage: Boolean! }
      type Mutation { shelve: Boolean @deprecated }
    `;
    expect(removed(previous, 'type Query { shelf: Shelf }\ntype Shelf { id: ID! }\ntype Book { id: ID! }')).toEqual({
      breaking: [],
      retired: [
        { kind: 'FIELD', coordinate: 'Shelf.books', reason: 'List books by shelfId.' },
        { kind: 'FIELD', coordinate: 'Mutation.shelve', reason: 'No longer supported' },
      ],
    });
    // A type something else still returned goes only as a break.
    expect(
      removed(
        `${previous}\ntype Catalog { page: BookConnection }\nextend type Query { catalog: Catalog }`,
        'type Query { shelf: Shelf }\ntype Shelf { id: ID! }\ntype Book { id: ID! }',
      ).breaking,
    ).toEqual(expect.arrayContaining(['BookConnection was removed.', 'Catalog was removed.']));
  });

  it('still refuses removing what the committed schema did not deprecate, a type, or a field deprecated only now', () => {
    const previous =
      'type Query { book: Book shelf: Shelf }\ntype Book { id: ID! title: String! heading: String }\ntype Shelf { id: ID! label: String @deprecated }';
    expect(removed(previous, 'type Query { book: Book }\ntype Book { id: ID! title: String! @deprecated }')).toEqual({
      breaking: ['Shelf was removed.', 'Query.shelf was removed.', 'Book.heading was removed.'],
      retired: [],
    });
  });
});

describe('generate, once the committed schema deprecates a field', () => {
  const project = scratchDir('rs-deprecation-');
  const source = path.join(project, 'app.ts');
  const layout = layoutOf(project);
  copyFileSync(path.join(FIXTURE, 'app.ts'), source);
  const original = readFileSync(source, 'utf8');

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  /** The committed SDL: what `generate` wrote from the fixture as it is. */
  const release = async (): Promise<void> => {
    const sdl = (await planOutput(layout)).files.find((file) => file.path === 'schema.graphql')?.content ?? '';
    mkdirSync(layout.generatedDir, { recursive: true });
    writeFileSync(path.join(layout.generatedDir, 'schema.graphql'), sdl);
  };

  it('accepts removing it without --allow-breaking, reporting what was removed', { timeout: 120_000 }, async () => {
    await release();
    // A deprecated column (with its filter and input fields), and the only has_many to Book (with its connection type).
    const withoutShelfCode = original
      .replace(
        "  /** The old shelf code. */\n  @Filterable()\n  @Column({ deprecationReason: 'Shelves have ids now.' })\n  shelfCode?: string | null;\n\n",
        '',
      )
      .replace(
        "\n  /** The books on it. */\n  @HasMany(() => Book, { exposed: true, deprecationReason: 'List books by shelfId.' })\n  books?: Book[];\n",
        '',
      );
    expect(withoutShelfCode).not.toContain('shelfCode');
    expect(withoutShelfCode).not.toContain('@HasMany(');
    writeFileSync(source, withoutShelfCode);
    const result = await generate({ layout, mode: 'check' });
    expect(result.diagnostics.map(formatHeadline)).toEqual([]);
    expect(result.breaking).toEqual([]);
    expect(result.dangerous.filter((change) => change.type.startsWith('DEPRECATED_'))).toEqual([
      {
        type: 'DEPRECATED_FIELD_REMOVED',
        description: 'Book.shelfCode was removed; it was deprecated: Shelves have ids now.',
        column: undefined,
      },
      {
        type: 'DEPRECATED_FIELD_REMOVED',
        description: 'Shelf.books was removed; it was deprecated: List books by shelfId.',
        column: undefined,
      },
      {
        type: 'DEPRECATED_ARG_REMOVED',
        description: 'Query.books(shelfCode:) was removed; it was deprecated: Shelves have ids now.',
        column: undefined,
      },
      {
        type: 'DEPRECATED_FIELD_REMOVED',
        description: 'CreateBookInput.shelfCode was removed; it was deprecated: Shelves have ids now.',
        column: undefined,
      },
      {
        type: 'DEPRECATED_FIELD_REMOVED',
        description: 'UpdateBookInput.shelfCode was removed; it was deprecated: Shelves have ids now.',
        column: undefined,
      },
    ]);
  });

  it(
    'refuses removing a field it does not deprecate, and a required create field of a deprecated column',
    { timeout: 120_000 },
    async () => {
      writeFileSync(source, original);
      await release();
      const withoutTitle = original.replace(/ {2}\/\*\*\n {3}\* The title as first printed\.[\s\S]*?title!: string;\n\n/, '');
      writeFileSync(
        source,
        withoutTitle
          .replace("  /** The title shown. */\n  @Column({ default: '' })\n  heading!: string;\n\n", '')
          .replace('book.title', 'book.id'),
      );
      const result = await generate({ layout, mode: 'check' });
      expect(result.diagnostics.map(formatHeadline)).toEqual([]);
      expect(result.breaking.map((change) => `${change.type}: ${change.description}`)).toEqual([
        'FIELD_REMOVED: Book.heading was removed.',
        // Callers creating a book had to send a title: deprecated or not, they break.
        'FIELD_REMOVED: CreateBookInput.title was removed.',
        'FIELD_REMOVED: CreateBookInput.heading was removed.',
        'FIELD_REMOVED: UpdateBookInput.heading was removed.',
      ]);
      expect(result.dangerous.map((change) => change.description)).toEqual(
        expect.arrayContaining([
          'Book.title was removed; it was deprecated: Use heading.',
          'UpdateBookInput.title was removed; it was deprecated: Use heading.',
        ]),
      );
    },
  );
});
