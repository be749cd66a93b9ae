-- One trigger per insert and per delete keeps every counter, instead of one per counter: SQLite
-- has no statement-level triggers, so each runs once per row, and the counter's row is upserted
-- once per row rather than twice (a bulk import of a million users spent a second upsert on
-- every one). Same counts, same transaction, whatever path writes users.
DROP TRIGGER `users_count_insert`;
--> statement-breakpoint
DROP TRIGGER `users_activity_insert`;
--> statement-breakpoint
DROP TRIGGER `users_count_delete`;
--> statement-breakpoint
DROP TRIGGER `users_activity_delete`;
--> statement-breakpoint
CREATE TRIGGER `users_counted_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `active`, `generation`) VALUES (1, 1, new.`active`, random())
    ON CONFLICT (`id`) DO UPDATE SET `users` = `users` + 1, `active` = `active` + new.`active`, `generation` = random();
  INSERT INTO `daily_activity` (`day`, `signups`) VALUES (strftime('%Y-%m-%d', new.`created` / 1000, 'unixepoch'), 1)
    ON CONFLICT (`day`) DO UPDATE SET `signups` = `signups` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_counted_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `active`, `generation`) VALUES (1, -1, -old.`active`, random())
    ON CONFLICT (`id`) DO UPDATE SET `users` = `users` - 1, `active` = `active` - old.`active`, `generation` = random();
END;
