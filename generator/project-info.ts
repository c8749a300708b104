/**
 * What the generator reads from the application's package.json — the one reader of that file:
 *
 * - its license and contact, for the OpenAPI documents' `info` (docs/behaviour.md §4.4): `license`
 *   (an SPDX identifier, also given as `identifier`), and a contact from `author` (`"Name <email>
 *   (url)"` or an object), else `homepage` / `bugs`. A missing or unreadable package.json, or one
 *   naming neither, gives nothing: the documents then carry no license or contact rather than an
 *   invented one;
 * - the generator's settings, under the package's own name (`"resource-service": { "strict": true }`,
 *   docs/guide/development.md "Strict mode"), as Prisma keeps its settings under `"prisma"`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { closestMatch } from '../runtime/server/suggest.js';
import type { ProjectInfo } from './emit/context.js';
import { PACKAGE_NAME } from './package.js';

type Contact = NonNullable<ProjectInfo['contact']>;

/** npm's person: `"Name <email> (url)"` or `{ name, email, url }`. */
function personOf(value: unknown): Contact | undefined {
  if (typeof value === 'string') {
    const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?$/.exec(value.trim());
    if (!match) return undefined;
    const [, name, email, url] = match;
    return { ...(name ? { name } : {}), ...(email ? { email } : {}), ...(url ? { url } : {}) };
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { name, email, url } = value as Record<string, unknown>;
  return {
    ...(typeof name === 'string' && name ? { name } : {}),
    ...(typeof email === 'string' && email ? { email } : {}),
    ...(typeof url === 'string' && url ? { url } : {}),
  };
}

/** The package.json at `root` as an object; undefined when it is missing, unreadable or not an object. */
function readManifest(root: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * What the package.json at `root` gives for the documents' `info`; empty when it cannot be read
 * or gives nothing. Never throws.
 */
export function readProjectInfo(root: string): ProjectInfo {
  const manifest = readManifest(root);
  if (manifest === undefined) return {};
  const { license, author, homepage, bugs } = manifest;
  const spdx = typeof license === 'string' && /^[A-Za-z0-9.+-]+$/.test(license) && license !== 'UNLICENSED';
  const bugsUrl =
    typeof bugs === 'string'
      ? bugs
      : bugs !== null && typeof bugs === 'object' && typeof (bugs as Record<string, unknown>).url === 'string'
        ? ((bugs as Record<string, unknown>).url as string)
        : undefined;
  const person = personOf(author) ?? {};
  const contact: Contact = {
    ...person,
    ...(person.url === undefined && typeof homepage === 'string'
      ? { url: homepage }
      : person.url === undefined && bugsUrl
        ? { url: bugsUrl }
        : {}),
  };
  return {
    ...(typeof license === 'string' && license.trim() !== ''
      ? { license: { name: license, ...(spdx ? { identifier: license } : {}) } }
      : {}),
    ...(Object.keys(contact).length > 0 ? { contact } : {}),
  };
}

/**
 * The generator's settings an application keeps in its package.json, under `"resource-service"`
 * (docs/guide/development.md "Strict mode"); each is what the command line's flag of the same name
 * overrides for one run.
 */
export interface GeneratorSettings {
  /** Count every warning of `generate` as an error (`--strict`; default false). */
  readonly strict: boolean;
}

/** The settings {@link GeneratorSettings} holds, by name: what an unknown one is compared with. */
const SETTING_NAMES: readonly (keyof GeneratorSettings)[] = ['strict'];

/**
 * The generator's settings of the application at `root`: the defaults when its package.json is
 * missing, unreadable or has no `"resource-service"` section. Throws an `Error` naming the file
 * and the fix when that section is not an object, names an unknown setting (with the closest
 * one: a misspelt `"strcit"` would otherwise leave strict mode off without a word) or gives
 * `strict` a value that is not a boolean.
 */
export function readGeneratorSettings(root: string): GeneratorSettings {
  const section = readManifest(root)?.[PACKAGE_NAME];
  if (section === undefined) return { strict: false };
  const where = `package.json "${PACKAGE_NAME}"`;
  if (section === null || typeof section !== 'object' || Array.isArray(section))
    throw new Error(`${where} is ${JSON.stringify(section)}; write an object of settings, such as { "strict": true }`);
  for (const name of Object.keys(section)) {
    if ((SETTING_NAMES as readonly string[]).includes(name)) continue;
    const match = closestMatch(name, SETTING_NAMES);
    throw new Error(
      `${where} has no setting "${name}"${match === undefined ? '' : ` (did you mean "${match}"?)`}; the settings are ${SETTING_NAMES.map((known) => `"${known}"`).join(', ')}`,
    );
  }
  const strict = (section as Record<string, unknown>).strict ?? false;
  if (typeof strict !== 'boolean') throw new Error(`${where}.strict is ${JSON.stringify(strict)}; write true or false`);
  return { strict };
}
