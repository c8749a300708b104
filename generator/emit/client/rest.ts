/**
 * Emits the typed REST clients (docs/behaviour.md §11.1): one module per API version,
 * `client/v<version>.ts`, holding the TypeScript types openapi-typescript writes from that version's
 * committed OpenAPI document (`paths`, `components`, `operations`) and a factory building an
 * openapi-fetch client over them with the caller's bearer token. An application without versions
 * gets one module, `client/rest.ts`, from the document of every route.
 *
 * The input is the emitted document, not the resolved model: the client describes exactly what
 * the documents promise callers, so the two cannot disagree.
 */
import { createRequire } from 'node:module';
import type { OpenAPI3 } from 'openapi-typescript';
import { cacheKey, type TextCache } from '../../cache.js';
import { openApiDocumentPath } from '../../paths.js';
import { restClientFactory, restClientModule, restClientType } from '../../model/naming.js';
import type { OutputLayout } from '../writer.js';
import { type GeneratedFile, paragraphs, TypeScriptFile, writeDoc } from '../writer.js';

/** What openapi-typescript is asked: nothing on the console; every other option its default. */
const OPENAPI_TS_OPTIONS = { silent: true } as const;

const require = createRequire(import.meta.url);

/**
 * openapi-typescript, loaded on first use so that commands emitting nothing never pay for it. Its
 * CommonJS build: the ESM build's `import ts from 'typescript'` makes Node scan the TypeScript compiler
 * for its export names, which costs `generate` time (BENCHMARKS.md §"Where the time goes").
 */
function loadOpenApiTypeScript(): typeof import('openapi-typescript') {
  return require('openapi-typescript') as typeof import('openapi-typescript');
}

/** The versions of the tools whose output the types are (a new version may write other types). */
function toolVersions(): string[] {
  return ['openapi-typescript/package.json', 'typescript/package.json'].map((manifest) => {
    const { name, version } = require(manifest) as { name: string; version: string };
    return `${name}@${version}`;
  });
}

/** openapi-typescript's types of one OpenAPI document (`text`), from `cache` when it has them. */
async function typesOf(text: string, cache: TextCache | undefined): Promise<string> {
  const key = cacheKey([...toolVersions(), JSON.stringify(OPENAPI_TS_OPTIONS), text]);
  const cached = cache?.get(key);
  if (cached !== undefined) return cached;
  const { default: openapiTS, astToString } = loadOpenApiTypeScript();
  // The document is an object, so nothing is read from disk or the network.
  const types = astToString(await openapiTS(JSON.parse(text) as OpenAPI3, OPENAPI_TS_OPTIONS));
  cache?.set(key, types);
  return types;
}

/**
 * The typed REST client modules of the emitted OpenAPI documents (`emitted`: path → content, as
 * emitted in this run): one per version of `versions` (the mounted ones), or one of the API when
 * there are none. A document with no path gets no client. `cache` keeps openapi-typescript's
 * output by its input, so a run whose documents did not change does not load it (docs/guide/clients.md).
 */
export async function emitRestClients(
  layout: OutputLayout,
  versions: readonly string[],
  emitted: ReadonlyMap<string, string>,
  cache?: TextCache,
): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  for (const version of versions.length > 0 ? versions : [undefined]) {
    const documentPath = openApiDocumentPath(version);
    const text = emitted.get(documentPath);
    if (text === undefined)
      throw new Error(
        `the REST client of ${version === undefined ? 'the API' : `version ${version}`} needs ${documentPath}, which was not emitted`,
      );
    if (Object.keys((JSON.parse(text) as OpenAPI3).paths ?? {}).length === 0) continue;
    files.push(restClientFile(layout, version, documentPath, await typesOf(text, cache)));
  }
  return files;
}

/** One version's client module: the factory, then openapi-typescript's types. */
function restClientFile(layout: OutputLayout, version: string | undefined, documentPath: string, types: string): GeneratedFile {
  const which = version === undefined ? 'the API' : `version ${version} of the API`;
  const file = new TypeScriptFile(
    restClientModule(version),
    layout,
    `A typed client of ${which}: the types below are openapi-typescript's reading of\n${documentPath}, and ${restClientFactory(version)} builds an openapi-fetch client over them.`,
  );
  const createClient = file.imports.packageDefault('openapi-fetch', 'createClient');
  const client = file.imports.packageType('openapi-fetch', 'Client');
  const clientOptions = file.imports.packageType('openapi-fetch', 'ClientOptions');
  const mergeHeaders = file.imports.packageValue('openapi-fetch', 'mergeHeaders');
  const { body } = file;
  const type = restClientType(version);
  const factory = restClientFactory(version);
  writeDoc(body, [`Options of {@link ${factory}}: openapi-fetch's client options, and the caller's bearer token.`]);
  body.write(`export interface RestClientOptions extends Omit<${clientOptions}, 'baseUrl'>`).block(() => {
    writeDoc(body, ['A token to send as `Authorization: Bearer <token>` with every request; none: anonymous.']);
    body.writeLine('readonly token?: string | undefined;');
  });
  body.blankLine();
  writeDoc(body, [`A client of ${which}: \`GET\`, \`POST\`, … take a path of {@link paths} and its typed parameters and body.`]);
  body.writeLine(`export type ${type} = ${client}<paths>;`);
  body.blankLine();
  writeDoc(body, [
    paragraphs(
      `A client of ${which}.`,
      'Each call answers `{ data, error, response }`: `data` is the typed success body, `error` the\ntyped problem document of a failure (RFC 9457), `response` the fetch `Response` (headers such\nas `x-next-cursor`).',
      '@param baseUrl where the server answers, with its HTTP prefix if it has one (`http://127.0.0.1:3000`)\n@param options the bearer token, and any openapi-fetch client option',
    ),
  ]);
  body.write(`export function ${factory}(baseUrl: string, options: RestClientOptions = {}): ${type}`).block(() => {
    body.writeLine('const { token, headers, ...rest } = options;');
    body.writeLine(
      `return ${createClient}<paths>({ ...rest, baseUrl, headers: ${mergeHeaders}(headers, token === undefined ? undefined : { authorization: \`Bearer \${token}\` }) });`,
    );
  });
  body.blankLine();
  body.write(types);
  return file.render();
}
