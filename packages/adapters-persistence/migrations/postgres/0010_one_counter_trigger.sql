-- One statement-level trigger per insert, delete and truncate keeps every counter, instead of
-- one per counter. Triggers fire in name order, and 0008's ran first and took `daily_activity`'s
-- rows before the counter's row when a statement inserted only inactive users, while other
-- writers take the counter's row first: two concurrent creates could deadlock. Here every writer
-- takes the counter's row first (and once per statement), then the days' rows.
DROP TRIGGER users_count_insert ON users;
--> statement-breakpoint
DROP TRIGGER users_activity_insert ON users;
--> statement-breakpoint
DROP TRIGGER users_count_delete ON users;
--> statement-breakpoint
DROP TRIGGER users_activity_delete ON users;
--> statement-breakpoint
DROP TRIGGER users_count_truncate ON users;
--> statement-breakpoint
DROP TRIGGER users_activity_truncate ON users;
--> statement-breakpoint
DROP FUNCTION users_count_inserted(), users_activity_inserted(), users_count_deleted(), users_activity_deleted(),
  users_count_truncated(), users_activity_truncated();
--> statement-breakpoint
CREATE FUNCTION users_counted_inserted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  added bigint;
  added_active bigint;
BEGIN
  SELECT count(*), coalesce(sum(inserted.active), 0) INTO added, added_active FROM inserted;
  IF added > 0 THEN
    INSERT INTO user_count (id, users, active, generation) VALUES (1, added, added_active, nextval('users_generation'))
      ON CONFLICT (id) DO UPDATE SET users = user_count.users + added, active = user_count.active + added_active,
        generation = excluded.generation;
    INSERT INTO daily_activity (day, signups)
      SELECT (inserted.created AT TIME ZONE 'UTC')::date, count(*) FROM inserted GROUP BY 1
      ON CONFLICT (day) DO UPDATE SET signups = daily_activity.signups + excluded.signups;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_counted_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  removed bigint;
  removed_active bigint;
BEGIN
  SELECT count(*), coalesce(sum(deleted.active), 0) INTO removed, removed_active FROM deleted;
  IF removed > 0 THEN
    INSERT INTO user_count (id, users, active, generation) VALUES (1, -removed, -removed_active, nextval('users_generation'))
      ON CONFLICT (id) DO UPDATE SET users = user_count.users - removed, active = user_count.active - removed_active,
        generation = excluded.generation;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION users_counted_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO user_count (id, users, active, generation) VALUES (1, 0, 0, nextval('users_generation'))
    ON CONFLICT (id) DO UPDATE SET users = 0, active = 0, generation = excluded.generation;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_counted_insert AFTER INSERT ON users REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION users_counted_inserted();
--> statement-breakpoint
CREATE TRIGGER users_counted_delete AFTER DELETE ON users REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION users_counted_deleted();
--> statement-breakpoint
CREATE TRIGGER users_counted_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION users_counted_truncated();
