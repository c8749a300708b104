/**
 * The persisted-document manifest `generate` writes (docs/behaviour.md §4.10): the committed
 * `generated/graphql/documents.json` holds every typed-client factory's default document and each
 * document of `entities/documents/`, as graphql-js prints them, keyed by the SHA-256 of that text,
 * in hash order; it is the same whatever order the documents are listed in, and a document listed
 * twice is one entry.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as client from '../../generated/client/graphql.js';
import { checkListedDocuments, emitDocumentManifest, readListedDocuments } from '../../generator/documents.js';
import { ROOT } from '../support/project.js';

const manifestText = readFileSync(path.join(ROOT, 'generated/graphql/documents.json'), 'utf8');
const manifest = JSON.parse(manifestText) as Record<string, string>;
const sdl = readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8');
const layout = {
  root: ROOT,
  entitiesDir: path.join(ROOT, 'entities'),
  runtimeDir: path.join(ROOT, 'runtime'),
  generatedDir: path.join(ROOT, 'generated'),
};

describe('the persisted-document manifest', () => {
  it('keys every document by the SHA-256 of its text, in hash order', () => {
    const keys = Object.keys(manifest);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys).toEqual([...keys].sort());
    for (const [hash, text] of Object.entries(manifest)) expect(createHash('sha256').update(text).digest('hex')).toBe(hash);
  });

  it('holds the default document of every factory of the typed client, as the client prints it', () => {
    const factories = Object.entries(client).filter(
      ([name, value]) => /(Query|Mutation|Subscription)$/.test(name) && typeof value === 'function',
    );
    expect(factories.length).toBeGreaterThan(10);
    const texts = new Set(Object.values(manifest));
    for (const [name, factory] of factories) expect(texts.has(print((factory as () => Parameters<typeof print>[0])())), name).toBe(true);
  });

  it('holds each document the demo lists under entities/documents/, printed', () => {
    const listed = readListedDocuments(layout);
    expect(listed.map((document) => document.file)).toEqual([
      'entities/documents/create-user.graphql',
      'entities/documents/user-names.graphql',
      'entities/documents/user.graphql',
      'entities/documents/users-id-name.graphql',
      'entities/documents/users-with-posts.graphql',
    ]);
    for (const { text } of listed) expect(Object.values(manifest)).toContain(print(parse(text)));
  });

  it('is written the same whatever order the documents come in, once per document', () => {
    const { diagnostics, texts } = checkListedDocuments(sdl, readListedDocuments(layout));
    expect(diagnostics).toEqual([]);
    const all = Object.values(manifest);
    expect(emitDocumentManifest([...all].reverse()).content).toBe(manifestText);
    expect(emitDocumentManifest([...all, ...texts, ...all]).content).toBe(manifestText);
  });
});
