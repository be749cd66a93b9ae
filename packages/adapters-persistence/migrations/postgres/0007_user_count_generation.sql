ALTER TABLE "user_count" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The generation: the next value of a sequence (which no TRUNCATE resets) in the transaction of
-- every write that changes what a search matches or in which order (an insert, a delete, a
-- truncate, a change of email or `created`). Writers queue on the counter's row, as for the
-- count, so a snapshot that sees a generation sees every write before it. Cached searches are
-- valid for one generation (see MatchCache), whichever instance cached them.
CREATE SEQUENCE users_generation;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_count_inserted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  added bigint := (SELECT count(*) FROM inserted);
BEGIN
  IF added > 0 THEN
    INSERT INTO user_count (id, users, generation) VALUES (1, added, nextval('users_generation'))
      ON CONFLICT (id) DO UPDATE SET users = user_count.users + added, generation = excluded.generation;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_count_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  removed bigint := (SELECT count(*) FROM deleted);
BEGIN
  IF removed > 0 THEN
    INSERT INTO user_count (id, users, generation) VALUES (1, -removed, nextval('users_generation'))
      ON CONFLICT (id) DO UPDATE SET users = user_count.users - removed, generation = excluded.generation;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_count_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO user_count (id, users, generation) VALUES (1, 0, nextval('users_generation'))
    ON CONFLICT (id) DO UPDATE SET users = 0, generation = excluded.generation;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_generation_moved() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE user_count SET generation = nextval('users_generation') WHERE id = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_generation_update AFTER UPDATE OF email, created ON users FOR EACH ROW
  WHEN (old.email IS DISTINCT FROM new.email OR old.created IS DISTINCT FROM new.created)
  EXECUTE FUNCTION users_generation_moved();
