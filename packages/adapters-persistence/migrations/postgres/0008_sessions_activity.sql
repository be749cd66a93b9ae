CREATE TABLE "daily_activity" (
	"day" date PRIMARY KEY NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"logins" integer DEFAULT 0 NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A session's last use and expiry are its newest refresh token's issue and expiry (its creation
-- when it has none left); sessions opened before this migration have no address or user agent.
ALTER TABLE "sessions" ADD COLUMN "last_used" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "expires" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
UPDATE "sessions" SET
  "last_used" = coalesce((SELECT max("issued") FROM "refresh_tokens" WHERE "session_id" = "sessions"."id"), "created"),
  "expires" = coalesce((SELECT max("expires") FROM "refresh_tokens" WHERE "session_id" = "sessions"."id"), "created");
--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "last_used" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "expires" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_count" ADD COLUMN "active" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "user_count" SET "active" = (SELECT count(*) FROM "users" WHERE "active" = 1);
--> statement-breakpoint
-- The users created so far count as sign-ups of the days they were created.
INSERT INTO "daily_activity" ("day", "signups")
  SELECT ("created" AT TIME ZONE 'UTC')::date, count(*) FROM "users" GROUP BY 1;
--> statement-breakpoint
-- The counter's row is upserted, as 0005's triggers do, so whichever trigger runs first makes it.
-- Kept by statement-level triggers in the transaction of every write to `users`, whatever path
-- writes them, as `user_count`'s own triggers keep its `users` (see 0005). An update that leaves
-- `active` as it was (a rename, a login's last_login) does not touch the counter's row, so it
-- does not queue behind other writers there.
CREATE FUNCTION users_activity_inserted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  added bigint := (SELECT coalesce(sum(inserted.active), 0) FROM inserted);
BEGIN
  IF added > 0 THEN
    INSERT INTO user_count (id, users, active) VALUES (1, 0, added)
      ON CONFLICT (id) DO UPDATE SET active = user_count.active + added;
  END IF;
  INSERT INTO daily_activity (day, signups)
    SELECT (inserted.created AT TIME ZONE 'UTC')::date, count(*) FROM inserted GROUP BY 1
    ON CONFLICT (day) DO UPDATE SET signups = daily_activity.signups + excluded.signups;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_activity_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  removed bigint := (SELECT coalesce(sum(deleted.active), 0) FROM deleted);
BEGIN
  IF removed > 0 THEN
    INSERT INTO user_count (id, users, active) VALUES (1, 0, -removed)
      ON CONFLICT (id) DO UPDATE SET active = user_count.active - removed;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_activity_updated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  moved bigint := (SELECT coalesce(sum(new_rows.active), 0) FROM new_rows) - (SELECT coalesce(sum(old_rows.active), 0) FROM old_rows);
BEGIN
  IF moved <> 0 THEN
    INSERT INTO user_count (id, users, active) VALUES (1, 0, moved)
      ON CONFLICT (id) DO UPDATE SET active = user_count.active + moved;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_activity_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO user_count (id, users, active) VALUES (1, 0, 0) ON CONFLICT (id) DO UPDATE SET active = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_activity_insert AFTER INSERT ON users REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION users_activity_inserted();
--> statement-breakpoint
CREATE TRIGGER users_activity_delete AFTER DELETE ON users REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION users_activity_deleted();
--> statement-breakpoint
CREATE TRIGGER users_activity_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_activity_updated();
--> statement-breakpoint
CREATE TRIGGER users_activity_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION users_activity_truncated();
