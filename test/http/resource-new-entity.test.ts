/**
 * Adding a resource is one declaration (docs/behaviour.md §4.7), as a user does it: in a copy of the
 * demo, a new `Label` entity marked `@Resource` and its grants, then `generate`, `migrate deploy`,
 * `seed` and `serve` from the command line — and all five operations over REST and GraphQL for two
 * orgs and every role: row scope, masking, mass assignment refused, a foreign row answered like a
 * missing one, constraints, and a unique conflict (409 / CONFLICT naming the fields).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../runtime/auth/authentication.js';
import { cli, copyProject, listeningUrl, type RunningCli, startCli } from '../support/cli.js';
import { TEST_SECRET } from '../support/project.js';

const LABEL = `import { Column, Entity, PrimaryKey, Resource, Unique } from 'resource-service';

/** A label an org puts on its posts. */
@Entity()
@Unique('orgId', 'name')
@Resource({ path: 'labels' })
export class Label {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org it belongs to. */
  @Column()
  orgId!: string;

  /** Unique in its org, 1..40 characters. */
  @Column({ minLength: 1, maxLength: 40 })
  name!: string;

  /** A hex colour. */
  @Column({ pattern: '^#[0-9a-f]{6}$', default: '#888888' })
  colour!: string;
}
`;

/** Grants for Label, added before the role switch of the demo's abilities. */
const GRANTS = `
      if (principal.role === 'admin') {
        can(['create', 'read', 'delete'], 'Label', inOrg);
        can('update', 'Label', ['name', 'colour'], inOrg);
      }
      if (principal.role === 'member') can(['create', 'read'], 'Label', inOrg);
      if (principal.role === 'viewer') can('read', 'Label', ['id', 'orgId', 'name'], inOrg);
      switch (principal.role) {`;

type Role = 'admin' | 'member' | 'viewer';
interface Seeded {
  readonly orgs: readonly { id: string }[];
  readonly users: readonly { id: string; orgId: string; role: Role }[];
}
interface LabelRow {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly colour: string;
}

const MISSING = '01900000-0000-7000-8000-00000000beef';

let project: string;
let serving: RunningCli;
let url: string;
let seeded: Seeded;

async function token(role: Role, org: number): Promise<string> {
  const user = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === seeded.orgs[org]?.id);
  if (!user) throw new Error(`no ${role} in org ${org}`);
  return mintToken(TEST_SECRET, { sub: user.id, org_id: user.orgId, role });
}

async function rest(method: string, pathname: string, role: Role, org: number, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${await token(role, org)}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function graphql(
  query: string,
  role: Role,
  org: number,
  variables?: Record<string, unknown>,
): Promise<{ data?: Record<string, unknown> | null; errors?: { extensions?: Record<string, unknown> }[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token(role, org)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, unknown> | null; errors?: { extensions?: Record<string, unknown> }[] };
}

/** `value` with `id` as `<id>` and without the request's own id (every request has its own, docs/behaviour.md §12.1). */
const without = (value: unknown, id: string): unknown =>
  JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'requestId' ? undefined : field)).replaceAll(id, '<id>')) as unknown;

beforeAll(async () => {
  project = copyProject();
  writeFileSync(path.join(project, 'entities/label.entity.ts'), LABEL);
  const abilities = path.join(project, 'entities/abilities.ts');
  writeFileSync(abilities, readFileSync(abilities, 'utf8').replace('      switch (principal.role) {', GRANTS));
  const env = { APP_DATABASE__URL: `file:${path.join(project, 'app.db')}` };

  const generated = cli(['generate'], { cwd: project, env });
  expect(generated.stderr).toBe('');
  expect(generated.status).toBe(0);
  expect(generated.stdout).toMatch(/new migration: generated\/prisma\/sqlite\/migrations\/0005_\w*label/);
  expect(cli(['generate', '--check'], { cwd: project, env }).status).toBe(0);
  expect(cli(['migrate', 'deploy'], { cwd: project, env }).status).toBe(0);
  const seed = cli(['seed', '--orgs', '2', '--users', '3', '--posts', '1', '--json'], { cwd: project, env });
  expect(seed.status).toBe(0);
  seeded = JSON.parse(seed.stdout) as Seeded;
  serving = startCli(['serve'], { cwd: project, env: { ...env, APP_HTTP__PORT: '0', APP_HTTP__HOST: '127.0.0.1' } });
  url = listeningUrl(await serving.waitFor((stdout) => listeningUrl(stdout) !== undefined, 60_000)) ?? '';
}, 240_000);

afterAll(async () => {
  await serving?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('a new @Resource entity, generated, migrated and served', () => {
  it('is in the SDL and the version-less OpenAPI document with its input types', async () => {
    const sdl = readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8');
    for (const line of [
      'labels(first: Int, after: String): [Label!]!',
      'label(id: ID!): Label!',
      'createLabel(input: CreateLabelInput!): Label!',
      'updateLabel(id: ID!, input: UpdateLabelInput!): Label!',
      'deleteLabel(id: ID!): Boolean',
    ]) {
      expect(sdl).toContain(line);
    }
    const openapi = (await (await fetch(`${url}/api-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: {
        schemas: Record<
          string,
          { required?: string[]; properties?: Record<string, { anyOf?: { maxLength?: number; pattern?: string }[] }> }
        >;
      };
    };
    expect(Object.keys(openapi.paths['/labels'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(openapi.paths['/labels/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    // A create field that needs a value and no create grant fixes is required; one a grant fixes (the org) may be left out.
    expect(openapi.components.schemas.CreateLabelInput?.properties?.name).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description: expect.any(String) as string,
    });
    expect(openapi.components.schemas.CreateLabelInput?.required).toContain('name');
    expect(openapi.components.schemas.CreateLabelInput?.required ?? []).not.toContain('orgId');
    expect(openapi.components.schemas.UpdateLabelInput?.properties?.colour?.anyOf?.[0]).toEqual({
      type: 'string',
      pattern: '^#[0-9a-f]{6}$',
    });
  });

  it("creates in the caller's org for admins and members, refuses viewers, and refuses an orgId in the input", async () => {
    for (const org of [0, 1]) {
      for (const role of ['admin', 'member'] as const) {
        const created = await rest('POST', '/labels', role, org, { name: `${role}-${org}` });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ orgId: seeded.orgs[org]?.id, name: `${role}-${org}`, colour: '#888888' });
      }
      expect((await rest('POST', '/labels', 'viewer', org, { name: 'nope' })).status).toBe(403);
    }
    const sneaky = await rest('POST', '/labels', 'member', 0, { name: 'sneaky', orgId: seeded.orgs[1]?.id });
    expect(sneaky).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', field: 'orgId' } });
    const viaGraph = await graphql('mutation($input: CreateLabelInput!) { createLabel(input: $input) { id } }', 'admin', 0, {
      input: { name: 'sneaky', orgId: seeded.orgs[1]?.id },
    });
    expect(viaGraph.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'orgId' });
  });

  it('answers a unique conflict with 409 / CONFLICT naming the fields, and bad values with 400 / BAD_USER_INPUT', async () => {
    const conflict = await rest('POST', '/labels', 'admin', 0, { name: 'admin-0' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'CONFLICT' });
    expect((conflict.body as { detail: string }).detail).toMatch(/orgId, name|name/);
    // The same name in the other org is no conflict: uniqueness is per org.
    expect((await rest('POST', '/labels', 'admin', 1, { name: 'member-0' })).status).toBe(201);
    const graph = await graphql('mutation { createLabel(input: { name: "admin-0" }) { id } }', 'admin', 0);
    expect(graph.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    for (const body of [{ name: 'x'.repeat(41) }, { name: 'ok', colour: 'red' }, { name: '' }, { name: 7 }]) {
      const answer = await rest('POST', '/labels', 'admin', 0, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    expect(
      (await graphql('mutation { createLabel(input: { name: "ok", colour: "red" }) { id } }', 'admin', 0)).errors?.[0]?.extensions?.code,
    ).toBe('BAD_USER_INPUT');
  });

  it("lists and gets only the caller's org, masks the viewer, and answers foreign rows like missing ones", async () => {
    for (const org of [0, 1]) {
      for (const role of ['admin', 'member', 'viewer'] as const) {
        const rows = (await rest('GET', '/labels?first=100', role, org)).body as LabelRow[];
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(rows.every((row) => row.orgId === seeded.orgs[org]?.id)).toBe(true);
        if (role === 'viewer') for (const row of rows) expect(Object.keys(row).sort()).toEqual(['id', 'name', 'orgId']);
        const listed = await graphql('{ labels(first: 100) { id name } }', role, org);
        expect((listed.data?.labels as { id: string }[]).map((row) => row.id)).toEqual(rows.map((row) => row.id));
      }
    }
    expect((await graphql('{ labels { colour } }', 'viewer', 0)).errors?.[0]?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      field: 'colour',
    });
    const foreign = ((await rest('GET', '/labels', 'admin', 1)).body as LabelRow[])[0];
    if (!foreign) throw new Error('no label in org 1');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const hidden = await rest('GET', `/labels/${foreign.id}`, role, 0);
      expect(hidden.status).toBe(404);
      expect(without(hidden, foreign.id)).toEqual(without(await rest('GET', `/labels/${MISSING}`, role, 0), MISSING));
      const graphHidden = await graphql(`{ label(id: "${foreign.id}") { id } }`, role, 0);
      expect(without(graphHidden, foreign.id)).toEqual(without(await graphql(`{ label(id: "${MISSING}") { id } }`, role, 0), MISSING));
    }
  });

  it("updates only permitted fields, and only the admin may; deletes only in the caller's org", async () => {
    const label = ((await rest('GET', '/labels', 'admin', 0)).body as LabelRow[])[0];
    if (!label) throw new Error('no label in org 0');
    expect(await rest('PATCH', `/labels/${label.id}`, 'admin', 0, { colour: '#ff0000' })).toMatchObject({
      status: 200,
      body: { colour: '#ff0000' },
    });
    expect(await rest('PATCH', `/labels/${label.id}`, 'admin', 0, { orgId: seeded.orgs[1]?.id })).toMatchObject({
      status: 403,
      body: { field: 'orgId' },
    });
    expect((await rest('PATCH', `/labels/${label.id}`, 'member', 0, { name: 'mine now' })).status).toBe(403);
    expect((await graphql(`mutation { updateLabel(id: "${label.id}", input: { name: "renamed" }) { name } }`, 'admin', 0)).data).toEqual({
      updateLabel: { name: 'renamed' },
    });
    const foreign = ((await rest('GET', '/labels', 'admin', 1)).body as LabelRow[])[0];
    if (!foreign) throw new Error('no label in org 1');
    expect((await rest('PATCH', `/labels/${foreign.id}`, 'admin', 0, { name: 'taken over' })).status).toBe(404);
    expect((await rest('DELETE', `/labels/${foreign.id}`, 'admin', 0)).status).toBe(404);
    expect((await rest('DELETE', `/labels/${label.id}`, 'member', 0)).status).toBe(403);
    expect((await rest('GET', `/labels/${foreign.id}`, 'admin', 1)).body).toMatchObject({ name: foreign.name });
    expect((await rest('DELETE', `/labels/${label.id}`, 'admin', 0)).status).toBe(204);
    expect((await graphql(`mutation { deleteLabel(id: "${label.id}") }`, 'admin', 0)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
