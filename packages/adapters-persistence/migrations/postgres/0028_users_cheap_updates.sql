-- Every change of a user (a PATCH, a login's last_login) costs PostgreSQL less: under the
-- benchmark's PATCH load the write's statement took 148 µs, 0.7 KiB of WAL and 11.6 buffers, where
-- it took 257 µs, 4 KiB and 19.5 (docs/performance.md).
--
-- Room on each page for a changed row to stay on it (a HOT update): the write then adds no entry
-- to any of the four indexes of users, the trigram one included. On pages filled to the brim, 60 %
-- of the benchmark's writes moved their row to another page. Applies to pages written from now on.
ALTER TABLE users SET (fillfactor = 90);
--> statement-breakpoint
-- The active users' count moves only when `active` does: a row-level trigger whose WHEN is checked
-- for each row calls nothing for a rename or a login, where 0008's statement-level trigger gathered
-- the updated rows twice (transition tables) and summed them at every update. Row-level AFTER
-- triggers fire at the end of the statement, so a writer still takes the counter's row after the
-- users' rows, as 0010 orders them. The price is a statement that changes `active` of many users
-- at once: it moves the counter once for each of them (the service changes one user a statement;
-- 50,000 in one statement by hand took 37 s against 1 s before). No column list (UPDATE OF): a
-- BEFORE trigger that changed `active` would not fire it.
DROP TRIGGER users_activity_update ON users;
--> statement-breakpoint
DROP FUNCTION users_activity_updated();
--> statement-breakpoint
CREATE FUNCTION users_active_moved() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO user_count (id, users, active) VALUES (1, 0, NEW.active - OLD.active)
    ON CONFLICT (id) DO UPDATE SET active = user_count.active + (NEW.active - OLD.active);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_active_move AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.active IS DISTINCT FROM NEW.active) EXECUTE FUNCTION users_active_moved();
