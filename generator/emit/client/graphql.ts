/**
 * Emits the typed GraphQL client, `client/graphql.ts` (docs/behaviour.md §11.2), from the emitted
 * SDL: the TypeScript types of the schema's enums, inputs and the object types root fields return,
 * one typed document factory per root field (a `TypedDocumentNode` of
 * `@graphql-typed-document-node/core`, so any client that understands those infers results and
 * variables), and a small fetch client that runs them.
 *
 * A factory selects the leaf fields (scalars and enums taking no argument) of the type its root
 * field returns: every one by default, or those the caller names — a caller whose grant excludes a
 * non-null field (a viewer and `User.email`, docs/behaviour.md §5.5) leaves it out rather than be
 * refused. Relation fields are not selected: a caller wanting them writes a document of its own.
 * A root field whose type has no leaf field, or is no object, enum or scalar, gets no factory.
 *
 * The input is the emitted SDL, not the resolved model: the client describes exactly the schema
 * callers are served.
 */
import {
  buildSchema,
  getNamedType,
  type GraphQLArgument,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse as parseDocument,
  print as printDocument,
} from 'graphql';
import {
  clientDocumentFactory,
  clientOperationName,
  clientResultType,
  clientSelectionConstant,
  clientVariablesType,
  type GraphQLOperationKind,
} from '../../model/naming.js';
import { type GeneratedFile, type OutputLayout, paragraphs, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The client module, relative to `generated/`. */
const GRAPHQL_CLIENT_MODULE = 'client/graphql.ts';

/** The TypeScript type of each scalar's wire value; a scalar not listed is `unknown`. */
const SCALAR_TYPES: Readonly<Record<string, string>> = {
  ID: 'string',
  String: 'string',
  Int: 'number',
  Float: 'number',
  Boolean: 'boolean',
  DateTime: 'string',
};

/** A root field the client has a document factory for. */
interface ClientOperation {
  readonly kind: GraphQLOperationKind;
  readonly field: GraphQLField<unknown, unknown>;
  /** The object type whose leaf fields it selects; undefined when it returns a scalar or enum. */
  readonly selects?: GraphQLObjectType;
}

/** The fields of `type` a document factory may select: scalars and enums taking no argument. */
function leafFields(type: GraphQLObjectType): GraphQLField<unknown, unknown>[] {
  return Object.values(type.getFields()).filter((field) => field.args.length === 0 && isLeafType(getNamedType(field.type)));
}

/** The root fields that get a factory, per operation kind in the order of the schema. */
function clientOperations(schema: GraphQLSchema): ClientOperation[] {
  const roots: [GraphQLOperationKind, GraphQLObjectType | null | undefined][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  const operations: ClientOperation[] = [];
  for (const [kind, root] of roots) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const named = getNamedType(field.type);
      if (isLeafType(named)) operations.push({ kind, field });
      else if (isObjectType(named) && leafFields(named).length > 0) operations.push({ kind, field, selects: named });
    }
  }
  return operations;
}

/** The enums and inputs the operations' arguments and selections name, and the selected object types, each sorted by name. */
function reachableTypes(operations: readonly ClientOperation[]): {
  enums: GraphQLEnumType[];
  inputs: GraphQLInputObjectType[];
  objects: GraphQLObjectType[];
} {
  const found = new Map<string, GraphQLNamedType>();
  const visitInput = (type: GraphQLType): void => {
    const named = getNamedType(type);
    if (found.has(named.name) || isScalarType(named)) return;
    found.set(named.name, named);
    if (isInputObjectType(named)) for (const field of Object.values(named.getFields())) visitInput(field.type);
  };
  for (const operation of operations) {
    for (const argument of operation.field.args) visitInput(argument.type);
    const named = getNamedType(operation.field.type);
    if (isEnumType(named)) found.set(named.name, named);
    if (operation.selects) {
      found.set(operation.selects.name, operation.selects);
      for (const field of leafFields(operation.selects)) visitInput(field.type);
    }
  }
  const sorted = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { enums: sorted.filter(isEnumType), inputs: sorted.filter(isInputObjectType), objects: sorted.filter(isObjectType) };
}

/** The TypeScript type of a GraphQL type, `leaf` spelling its named type: nullable → `| null`, lists → arrays. */
function tsType(type: GraphQLType, leaf: (named: GraphQLNamedType) => string): string {
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  let base: string;
  if (isListType(inner)) {
    const item = tsType(inner.ofType as GraphQLType, leaf);
    base = item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  } else {
    base = leaf(inner as GraphQLNamedType);
  }
  return nullable ? `${base} | null` : base;
}

/** The TypeScript name of a named input, enum or scalar type. */
function namedTs(named: GraphQLNamedType): string {
  return isScalarType(named) ? (SCALAR_TYPES[named.name] ?? 'unknown') : named.name;
}

/** A property of an input or a variables type: optional when GraphQL lets the caller leave it out. */
function inputProperty(field: GraphQLArgument | GraphQLInputField): string {
  const optional = !isNonNullType(field.type) || field.defaultValue !== undefined;
  return `${field.name}${optional ? '?' : ''}: ${tsType(field.type, namedTs)};`;
}

/** The doc lines of a field: its description and, when deprecated, why. */
function fieldDoc(field: {
  readonly description?: string | null | undefined;
  readonly deprecationReason?: string | null | undefined;
}): string {
  return paragraphs(field.description, field.deprecationReason ? `@deprecated ${field.deprecationReason}` : undefined);
}

/** `client/graphql.ts` from the emitted SDL; undefined when the schema has no root field to call. */
export function emitGraphQLClient(layout: OutputLayout, sdl: string): GeneratedFile | undefined {
  const operations = clientOperations(buildSchema(sdl));
  if (operations.length === 0) return undefined;
  const file = new TypeScriptFile(
    GRAPHQL_CLIENT_MODULE,
    layout,
    'A typed client of the GraphQL endpoint, from schema.graphql: the types of what root fields take\nand answer, a typed document factory per root field, and createGraphQLClient to run them.',
  );
  const { body, imports } = file;
  const typedDocument = imports.packageType('@graphql-typed-document-node/core', 'TypedDocumentNode');
  const { enums, inputs, objects } = reachableTypes(operations);

  for (const named of enums) {
    writeDoc(body, [named.description ?? undefined]);
    body.writeLine(
      `export type ${named.name} = ${named
        .getValues()
        .map((value) => quote(value.name))
        .join(' | ')};`,
    );
    body.blankLine();
  }
  for (const named of inputs) {
    writeDoc(body, [named.description ?? undefined]);
    body.write(`export interface ${named.name}`).block(() => {
      for (const field of Object.values(named.getFields())) {
        writeDoc(body, [fieldDoc(field)]);
        body.writeLine(inputProperty(field));
      }
    });
    body.blankLine();
  }
  for (const object of objects) {
    writeDoc(body, [
      paragraphs(object.description, 'Only its fields a document factory can select: scalars and enums taking no argument.'),
    ]);
    body.write(`export interface ${object.name}`).block(() => {
      for (const field of leafFields(object)) {
        writeDoc(body, [fieldDoc(field)]);
        body.writeLine(`${field.name}: ${tsType(field.type, namedTs)};`);
      }
    });
    body.blankLine();
    writeDoc(body, [`The fields of ${object.name} a document selects when the caller names none.`]);
    body.writeLine(
      `const ${clientSelectionConstant(object.name)}: readonly (keyof ${object.name})[] = [${leafFields(object)
        .map((field) => quote(field.name))
        .join(', ')}];`,
    );
    body.blankLine();
  }

  const documentNode = imports.packageType('graphql', 'DocumentNode');
  const parse = imports.packageValue('graphql', 'parse');
  writeDoc(body, [
    'A document: `head` is the operation up to its root field and arguments, `fields` the fields to select',
    'of what the field returns (undefined: it returns a scalar or an enum). Throws on a name that is no',
    'GraphQL name, and on an empty selection.',
  ]);
  body.write(`function operation(head: string, fields: readonly string[] | undefined): ${documentNode}`).block(() => {
    body.writeLine(`if (fields === undefined) return ${parse}(\`\${head} }\`, { noLocation: true });`);
    body.writeLine('if (fields.length === 0) throw new Error(`${head}: select at least one field`);');
    body.writeLine(
      'for (const name of fields) if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) throw new Error(`${head}: ${JSON.stringify(name)} is no field name`);',
    );
    body.writeLine(`return ${parse}(\`\${head} { \${[...new Set(fields)].join(' ')} } }\`, { noLocation: true });`);
  });
  body.blankLine();

  for (const operation of operations) writeOperation(file, typedDocument, operation);
  writeClient(file, typedDocument);
  return file.render();
}

/** A factory's operation up to its root field and arguments: `query Post($id: String!) { post(id: $id)`. */
function operationHead(kind: GraphQLOperationKind, field: GraphQLField<unknown, unknown>): string {
  const declared = field.args.map((argument) => `$${argument.name}: ${String(argument.type)}`);
  const passed = field.args.map((argument) => `${argument.name}: $${argument.name}`);
  return `${kind} ${clientOperationName(field.name)}${declared.length > 0 ? `(${declared.join(', ')})` : ''} { ${field.name}${passed.length > 0 ? `(${passed.join(', ')})` : ''}`;
}

/**
 * The document each factory of the client of `sdl` builds when called without fields (every leaf
 * field), as graphql-js `print` writes it: the typed client's entries of the persisted-document
 * manifest (generator/documents.ts).
 */
export function clientDocuments(sdl: string): string[] {
  return clientOperations(buildSchema(sdl)).map(({ kind, field, selects }) => {
    const head = operationHead(kind, field);
    const text =
      selects === undefined
        ? `${head} }`
        : `${head} { ${leafFields(selects)
            .map((leaf) => leaf.name)
            .join(' ')} } }`;
    return printDocument(parseDocument(text, { noLocation: true }));
  });
}

/** The variables type, result type and document factory of one root field. */
function writeOperation(file: TypeScriptFile, typedDocument: string, { kind, field, selects }: ClientOperation): void {
  const { body } = file;
  const variables = clientVariablesType(field.name, kind);
  const result = clientResultType(field.name, kind);
  const factory = clientDocumentFactory(field.name, kind);

  writeDoc(body, [`The variables of \`${field.name}\`.`]);
  if (field.args.length === 0) {
    body.writeLine(`export type ${variables} = Record<string, never>;`);
  } else {
    body.write(`export interface ${variables}`).block(() => {
      for (const argument of field.args) {
        writeDoc(body, [fieldDoc(argument)]);
        body.writeLine(inputProperty(argument));
      }
    });
  }
  body.blankLine();

  const head = operationHead(kind, field);

  if (selects === undefined) {
    writeDoc(body, [`What \`${field.name}\` answers.`]);
    body.write(`export interface ${result}`).block(() => body.writeLine(`${field.name}: ${tsType(field.type, namedTs)};`));
    body.blankLine();
    writeDoc(body, [paragraphs(fieldDoc(field), `The ${kind} document of \`${field.name}\`.`)]);
    body.write(`export function ${factory}(): ${typedDocument}<${result}, ${variables}>`).block(() => {
      body.writeLine(`return operation(${quote(head)}, undefined);`);
    });
    body.blankLine();
    return;
  }
  const parameter = `F extends keyof ${selects.name} = keyof ${selects.name}`;
  writeDoc(body, [`What \`${field.name}\` answers, selecting the fields \`F\` of ${selects.name}.`]);
  body.write(`export interface ${result}<${parameter}>`).block(() => {
    body.writeLine(`${field.name}: ${tsType(field.type, (named) => (named === selects ? `Pick<${selects.name}, F>` : namedTs(named)))};`);
  });
  body.blankLine();
  writeDoc(body, [
    paragraphs(
      fieldDoc(field),
      `The ${kind} document of \`${field.name}\`.`,
      `@param fields the fields of ${selects.name} to select; every one when omitted`,
    ),
  ]);
  body.write(`export function ${factory}<${parameter}>(fields?: readonly F[]): ${typedDocument}<${result}<F>, ${variables}>`).block(() => {
    body.writeLine(`return operation(${quote(head)}, fields ?? ${clientSelectionConstant(selects.name)});`);
  });
  body.blankLine();
}

/** `createGraphQLClient` and the types of what it answers. */
function writeClient(file: TypeScriptFile, typedDocument: string): void {
  const { body, imports } = file;
  const print = imports.packageValue('graphql', 'print');
  writeDoc(body, ['One error of a GraphQL response; `extensions.code` says which (`FORBIDDEN`, `NOT_FOUND`, …).']);
  body.write('export interface GraphQLResponseError').block(() => {
    body.writeLine('readonly message: string;');
    body.writeLine('readonly path?: readonly (string | number)[];');
    body.writeLine('readonly extensions?: Readonly<Record<string, unknown>>;');
  });
  body.blankLine();
  writeDoc(body, ['A GraphQL response: `data` shaped by the document, and the errors beside it.']);
  body.write('export interface GraphQLResponse<R>').block(() => {
    body.writeLine('readonly data?: R | null;');
    body.writeLine('readonly errors?: readonly GraphQLResponseError[];');
    body.writeLine('readonly extensions?: Readonly<Record<string, unknown>>;');
  });
  body.blankLine();
  writeDoc(body, ['The variables of a request: optional when the document requires none.']);
  body.writeLine(
    'export type VariablesArgument<V> = [V] extends [Record<string, never>] ? [variables?: V] : object extends V ? [variables?: V] : [variables: V];',
  );
  body.blankLine();
  writeDoc(body, ['Options of {@link createGraphQLClient}.']);
  body.write('export interface GraphQLClientOptions').block(() => {
    writeDoc(body, ['A token to send as `Authorization: Bearer <token>` with every request; none: anonymous.']);
    body.writeLine('readonly token?: string | undefined;');
    writeDoc(body, ['More headers to send with every request.']);
    body.writeLine('readonly headers?: Readonly<Record<string, string>>;');
    writeDoc(body, ['The fetch function to send requests with (default: the global `fetch`).']);
    body.writeLine('readonly fetch?: typeof fetch;');
    writeDoc(body, [
      'Send each document as its persisted-document id, `documentId: "sha256:<hex>"` (the SHA-256 of',
      '`print(document)`), instead of its text: for a server with `APP_GRAPHQL__TRUSTED_DOCUMENTS` on,',
      'which answers only the documents of its manifest (`graphql/documents.json`). Default false.',
    ]);
    body.writeLine('readonly persistedDocuments?: boolean;');
  });
  body.blankLine();
  writeDoc(body, ['The persisted-document id of each document sent so far (its SHA-256 is computed once).']);
  body.writeLine('const documentIds = new WeakMap<object, string>();');
  body.blankLine();
  writeDoc(body, [
    'The persisted-document id of `document`, whose printed text is `text`: `sha256:` and the hex SHA-256',
    'of the text (Web Crypto, in browsers and Node alike).',
  ]);
  body.write('async function documentIdOf(document: object, text: string): Promise<string>').block(() => {
    body.writeLine('const known = documentIds.get(document);');
    body.writeLine('if (known !== undefined) return known;');
    body.writeLine("const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));");
    body.writeLine("const id = `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;");
    body.writeLine('documentIds.set(document, id);');
    body.writeLine('return id;');
  });
  body.blankLine();
  writeDoc(body, ['A client of the GraphQL endpoint.']);
  body.write('export interface GraphQLClient').block(() => {
    writeDoc(body, [
      'Runs a query or a mutation document over HTTP POST and answers its response, errors included;',
      'throws when the answer is no GraphQL response (a proxy error page, a refused body). Subscription',
      'documents run over graphql-ws instead: `client.iterate({ query: print(document) })`.',
    ]);
    body.writeLine(`request<R, V>(document: ${typedDocument}<R, V>, ...variables: VariablesArgument<V>): Promise<GraphQLResponse<R>>;`);
  });
  body.blankLine();
  writeDoc(body, [
    paragraphs(
      'A client of the GraphQL endpoint at `endpoint` (`http://127.0.0.1:3000/graphql`).',
      "@param endpoint the endpoint's URL\n@param options the bearer token, more headers, another fetch, persisted documents",
    ),
  ]);
  body.write('export function createGraphQLClient(endpoint: string, options: GraphQLClientOptions = {}): GraphQLClient').block(() => {
    body.writeLine('const send = options.fetch ?? fetch;');
    body.writeLine(
      "const headers: Record<string, string> = { ...options.headers, accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json' };",
    );
    body.writeLine('if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;');
    body.write('return ').inlineBlock(() => {
      body
        .write(`async request<R, V>(document: ${typedDocument}<R, V>, ...[variables]: VariablesArgument<V>): Promise<GraphQLResponse<R>>`)
        .block(() => {
          body.writeLine(`const text = ${print}(document);`);
          body.writeLine(
            'const sent = options.persistedDocuments === true ? { documentId: await documentIdOf(document, text), variables } : { query: text, variables };',
          );
          body.writeLine("const response = await send(endpoint, { method: 'POST', headers, body: JSON.stringify(sent) });");
          body.writeLine('const answered = await response.text();');
          body.writeLine('let answer: unknown;');
          body.write('try ').inlineBlock(() => body.writeLine('answer = JSON.parse(answered);'));
          body.write(' catch').block(() => body.writeLine('answer = undefined;'));
          body.write("if (typeof answer !== 'object' || answer === null || !('data' in answer || 'errors' in answer))").block(() => {
            body.writeLine(
              'throw new Error(`POST ${endpoint} answered ${String(response.status)} with no GraphQL response: ${answered.slice(0, 200)}`);',
            );
          });
          body.writeLine('return answer as GraphQLResponse<R>;');
        });
    });
    body.write(';');
  });
}
