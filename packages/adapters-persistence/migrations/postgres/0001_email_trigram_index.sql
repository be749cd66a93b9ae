-- `search[email]` (ILIKE '%term%') is served by a trigram index. pg_trgm is installed once per
-- database in public, so that dropping an application schema never drops it with its indexes
-- elsewhere; the operator class is named with the schema the extension really lives in, which
-- also works where an operator installed pg_trgm in another schema beforehand.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
DO $$
DECLARE
  trgm_schema text := (
    SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'
  );
BEGIN
  EXECUTE format('CREATE INDEX users_email_trgm_idx ON users USING gin (email %I.gin_trgm_ops)', trgm_schema);
END
$$;
