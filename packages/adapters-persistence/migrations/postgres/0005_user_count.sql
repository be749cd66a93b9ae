CREATE TABLE "user_count" (
	"id" smallint PRIMARY KEY NOT NULL,
	"users" bigint NOT NULL,
	CONSTRAINT "user_count_single_row" CHECK ("user_count"."id" = 1)
);
--> statement-breakpoint
-- The counter is kept by statement-level triggers in the transaction of every write, whatever
-- path writes users: a batch insert moves it once per statement, by the size of its transition
-- table. Concurrent writers queue on this one row until they commit, which keeps it exact.
-- The row is upserted, so emptying every table (TRUNCATE of them all) leaves a counter that
-- still counts. SET search_path FROM CURRENT pins the functions to the schema they were made in.
INSERT INTO "user_count" ("id", "users") SELECT 1, count(*) FROM "users";
--> statement-breakpoint
CREATE FUNCTION users_count_inserted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  added bigint := (SELECT count(*) FROM inserted);
BEGIN
  IF added > 0 THEN
    INSERT INTO user_count (id, users) VALUES (1, added) ON CONFLICT (id) DO UPDATE SET users = user_count.users + added;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_count_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  removed bigint := (SELECT count(*) FROM deleted);
BEGIN
  IF removed > 0 THEN
    INSERT INTO user_count (id, users) VALUES (1, -removed) ON CONFLICT (id) DO UPDATE SET users = user_count.users - removed;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_count_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO user_count (id, users) VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET users = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_inserted();
--> statement-breakpoint
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_deleted();
--> statement-breakpoint
CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_truncated();
