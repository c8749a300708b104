/**
 * The application's license and contact, read from its package.json for the OpenAPI documents'
 * `info` (docs/behaviour.md §4.4): `license` (an SPDX identifier, also given as `identifier`),
 * and a contact from `author` (`"Name <email> (url)"` or an object), else `homepage` / `bugs`.
 * A missing or unreadable package.json, or one naming neither, gives nothing: the documents then
 * carry no license or contact rather than an invented one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProjectInfo } from './emit/context.js';

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

/**
 * What the package.json at `root` gives for the documents' `info`; empty when it cannot be read
 * or gives nothing. Never throws.
 */
export function readProjectInfo(root: string): ProjectInfo {
  let manifest: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    manifest = parsed as Record<string, unknown>;
  } catch {
    return {};
  }
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
