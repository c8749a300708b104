-- The PostGraphile peer's roles and row-level security (BENCHMARKS.md), applied by `npm run bench`
-- to the bench database as the cluster's superuser, after seeding; run again, it changes nothing.
--
-- As PostGraphile's security and JWT guides teach: the server connects as an authenticator role
-- that can do nothing itself, and each request's transaction switches to the caller's role (member
-- or admin) and carries the verified token's claims (`pgSettings`: `role`, `jwt.claims.sub`,
-- `jwt.claims.org_id`). Policies on those roles give the same scope the other servers write into
-- their queries (entities/abilities.ts): the caller's org; a member reads of its posts the
-- published ones and their own drafts, an admin reads all of them and creates users in it.
--
-- The other servers connect as the tables' owner (the superuser), which row-level security does
-- not apply to, so they read and write as before.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bench_postgraphile') THEN
    CREATE ROLE bench_postgraphile LOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bench_postgraphile_member') THEN
    CREATE ROLE bench_postgraphile_member NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bench_postgraphile_admin') THEN
    CREATE ROLE bench_postgraphile_admin NOLOGIN;
  END IF;
END
$$;
GRANT bench_postgraphile_member TO bench_postgraphile;
GRANT bench_postgraphile_admin TO bench_postgraphile;

-- The claims, read once a statement (the docs' `current_setting(…, true)`; an absent claim is NULL,
-- which matches no row).
CREATE SCHEMA IF NOT EXISTS bench_postgraphile;
GRANT USAGE ON SCHEMA bench_postgraphile TO bench_postgraphile_member, bench_postgraphile_admin;
CREATE OR REPLACE FUNCTION bench_postgraphile.current_org_id() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('jwt.claims.org_id', true), '')::uuid $$;
CREATE OR REPLACE FUNCTION bench_postgraphile.current_user_id() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('jwt.claims.sub', true), '')::uuid $$;

GRANT USAGE ON SCHEMA public TO bench_postgraphile_member, bench_postgraphile_admin;
GRANT SELECT ON "Org", "User", "Post" TO bench_postgraphile_member, bench_postgraphile_admin;
-- The write mix's createUser: the row's id comes from the client, as the other servers make it.
GRANT INSERT ON "User" TO bench_postgraphile_admin;

ALTER TABLE "Org" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "User" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Post" ENABLE ROW LEVEL SECURITY;

-- Both roles read their own org and its users; a member reads of its posts the published ones and
-- their own drafts, an admin all of them; an admin creates users in its org.
DROP POLICY IF EXISTS bench_postgraphile_select ON "Org";
CREATE POLICY bench_postgraphile_select ON "Org" FOR SELECT TO bench_postgraphile_member, bench_postgraphile_admin
  USING ("id" = (SELECT bench_postgraphile.current_org_id()));

DROP POLICY IF EXISTS bench_postgraphile_select ON "User";
CREATE POLICY bench_postgraphile_select ON "User" FOR SELECT TO bench_postgraphile_member, bench_postgraphile_admin
  USING ("orgId" = (SELECT bench_postgraphile.current_org_id()));

DROP POLICY IF EXISTS bench_postgraphile_admin_insert ON "User";
CREATE POLICY bench_postgraphile_admin_insert ON "User" FOR INSERT TO bench_postgraphile_admin
  WITH CHECK ("orgId" = (SELECT bench_postgraphile.current_org_id()));

DROP POLICY IF EXISTS bench_postgraphile_select ON "Post";
CREATE POLICY bench_postgraphile_select ON "Post" FOR SELECT TO bench_postgraphile_member
  USING (
    "orgId" = (SELECT bench_postgraphile.current_org_id())
    AND ("status" = 'published' OR "authorId" = (SELECT bench_postgraphile.current_user_id()))
  );

DROP POLICY IF EXISTS bench_postgraphile_admin_select ON "Post";
CREATE POLICY bench_postgraphile_admin_select ON "Post" FOR SELECT TO bench_postgraphile_admin
  USING ("orgId" = (SELECT bench_postgraphile.current_org_id()));
