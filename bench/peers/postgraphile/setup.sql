-- The PostGraphile peer's roles and row-level security (BENCHMARKS.md), applied by `npm run bench`
-- to the bench database as the cluster's superuser, after seeding; run again, it changes nothing.
--
-- As PostGraphile's security and JWT guides teach: the server connects as an authenticator role
-- that can do nothing itself, and each request's transaction switches to the member role and
-- carries the verified token's claims (`pgSettings`: `role`, `jwt.claims.sub`, `jwt.claims.org_id`).
-- Policies on that role give the same scope the other servers write into their queries: the
-- caller's org, and of its posts the published ones and the caller's own drafts.
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
END
$$;
GRANT bench_postgraphile_member TO bench_postgraphile;

-- The claims, read once a statement (the docs' `current_setting(…, true)`; an absent claim is NULL,
-- which matches no row).
CREATE SCHEMA IF NOT EXISTS bench_postgraphile;
GRANT USAGE ON SCHEMA bench_postgraphile TO bench_postgraphile_member;
CREATE OR REPLACE FUNCTION bench_postgraphile.current_org_id() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('jwt.claims.org_id', true), '')::uuid $$;
CREATE OR REPLACE FUNCTION bench_postgraphile.current_user_id() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('jwt.claims.sub', true), '')::uuid $$;

GRANT USAGE ON SCHEMA public TO bench_postgraphile_member;
GRANT SELECT ON "Org", "User", "Post" TO bench_postgraphile_member;

ALTER TABLE "Org" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "User" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Post" ENABLE ROW LEVEL SECURITY;

DROP POLICY IF EXISTS bench_postgraphile_select ON "Org";
CREATE POLICY bench_postgraphile_select ON "Org" FOR SELECT TO bench_postgraphile_member
  USING ("id" = (SELECT bench_postgraphile.current_org_id()));

DROP POLICY IF EXISTS bench_postgraphile_select ON "User";
CREATE POLICY bench_postgraphile_select ON "User" FOR SELECT TO bench_postgraphile_member
  USING ("orgId" = (SELECT bench_postgraphile.current_org_id()));

DROP POLICY IF EXISTS bench_postgraphile_select ON "Post";
CREATE POLICY bench_postgraphile_select ON "Post" FOR SELECT TO bench_postgraphile_member
  USING (
    "orgId" = (SELECT bench_postgraphile.current_org_id())
    AND ("status" = 'published' OR "authorId" = (SELECT bench_postgraphile.current_user_id()))
  );
