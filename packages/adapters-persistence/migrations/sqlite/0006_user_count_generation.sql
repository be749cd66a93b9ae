ALTER TABLE `user_count` ADD `generation` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The generation: a new random 64-bit value in the transaction of every write that changes what
-- a search matches or in which order (an insert, a delete, a change of email or `created`), so
-- that a search cached at one generation is never taken for another, even after the counter's
-- row is removed and made again. Cached searches are valid for one generation (see MatchCache).
DROP TRIGGER `users_count_insert`;
--> statement-breakpoint
DROP TRIGGER `users_count_delete`;
--> statement-breakpoint
CREATE TRIGGER `users_count_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `generation`) VALUES (1, 1, random())
    ON CONFLICT (`id`) DO UPDATE SET `users` = `users` + 1, `generation` = random();
END;
--> statement-breakpoint
CREATE TRIGGER `users_count_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`, `generation`) VALUES (1, -1, random())
    ON CONFLICT (`id`) DO UPDATE SET `users` = `users` - 1, `generation` = random();
END;
--> statement-breakpoint
CREATE TRIGGER `users_generation_update` AFTER UPDATE OF `email`, `created` ON `users`
  WHEN old.`email` IS NOT new.`email` OR old.`created` IS NOT new.`created` BEGIN
  UPDATE `user_count` SET `generation` = random() WHERE `id` = 1;
END;
