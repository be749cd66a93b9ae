CREATE TABLE `daily_activity` (
	`day` text PRIMARY KEY NOT NULL,
	`signups` integer DEFAULT 0 NOT NULL,
	`logins` integer DEFAULT 0 NOT NULL,
	`failed_logins` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A session's last use and expiry are its newest refresh token's issue and expiry (its creation
-- when it has none left); sessions opened before this migration have no address or user agent.
ALTER TABLE `sessions` ADD `last_used` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `expires` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `client_address` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
UPDATE `sessions` SET
  `last_used` = coalesce((SELECT max(`issued`) FROM `refresh_tokens` WHERE `session_id` = `sessions`.`id`), `created`),
  `expires` = coalesce((SELECT max(`expires`) FROM `refresh_tokens` WHERE `session_id` = `sessions`.`id`), `created`);
--> statement-breakpoint
ALTER TABLE `user_count` ADD `active` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `last_login` integer;--> statement-breakpoint
UPDATE `user_count` SET `active` = (SELECT count(*) FROM `users` WHERE `active` = 1);
--> statement-breakpoint
-- The users created so far count as sign-ups of the days they were created.
INSERT INTO `daily_activity` (`day`, `signups`)
  SELECT strftime('%Y-%m-%d', `created` / 1000, 'unixepoch'), count(*) FROM `users` GROUP BY 1;
--> statement-breakpoint
-- Kept in the transaction of every write to `users`, whatever path writes them, as `user_count`'s
-- own triggers keep its `users`; its row is upserted, as theirs is, so whichever runs first makes it.
CREATE TRIGGER `users_activity_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `active`) VALUES (1, 0, new.`active`)
    ON CONFLICT (`id`) DO UPDATE SET `active` = `active` + new.`active`;
  INSERT INTO `daily_activity` (`day`, `signups`) VALUES (strftime('%Y-%m-%d', new.`created` / 1000, 'unixepoch'), 1)
    ON CONFLICT (`day`) DO UPDATE SET `signups` = `signups` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_activity_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `active`) VALUES (1, 0, -old.`active`)
    ON CONFLICT (`id`) DO UPDATE SET `active` = `active` - old.`active`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_activity_update` AFTER UPDATE OF `active` ON `users` WHEN old.`active` IS NOT new.`active` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `active`) VALUES (1, 0, new.`active` - old.`active`)
    ON CONFLICT (`id`) DO UPDATE SET `active` = `active` + new.`active` - old.`active`;
END;
