CREATE TABLE `user_count` (
	`id` integer PRIMARY KEY NOT NULL,
	`users` integer NOT NULL,
	CONSTRAINT "user_count_single_row" CHECK("user_count"."id" = 1)
);
--> statement-breakpoint
-- The counter, kept in the transaction of every insert and delete whatever path writes users;
-- upserted, so that emptying both tables leaves a counter that still counts.
INSERT INTO `user_count` (`id`, `users`) SELECT 1, count(*) FROM `users`;
--> statement-breakpoint
CREATE TRIGGER `users_count_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`) VALUES (1, 1) ON CONFLICT (`id`) DO UPDATE SET `users` = `users` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_count_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `user_count` (`id`, `users`) VALUES (1, -1) ON CONFLICT (`id`) DO UPDATE SET `users` = `users` - 1;
END;
--> statement-breakpoint
-- `search[email]` is served by a trigram index of the emails: an external-content FTS5 table
-- (the emails are stored once, in `users`) keyed by the users' rowid. Emails and search terms
-- are lower-cased before they get here, so the index need not fold case, and a phrase query
-- of three characters or more is an exact substring match. VACUUM may renumber the rowids of
-- `users`; after one, run INSERT INTO users_email_fts(users_email_fts) VALUES ('rebuild').
CREATE VIRTUAL TABLE `users_email_fts` USING fts5(
  `email`, content = 'users', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1'
);
--> statement-breakpoint
INSERT INTO `users_email_fts` (`users_email_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `users_email_fts_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `users_email_fts` (`rowid`, `email`) VALUES (new.`rowid`, new.`email`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_email_fts_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `users_email_fts` (`users_email_fts`, `rowid`, `email`) VALUES ('delete', old.`rowid`, old.`email`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_email_fts_update` AFTER UPDATE OF `email` ON `users` WHEN old.`email` IS NOT new.`email` BEGIN
  INSERT INTO `users_email_fts` (`users_email_fts`, `rowid`, `email`) VALUES ('delete', old.`rowid`, old.`email`);
  INSERT INTO `users_email_fts` (`rowid`, `email`) VALUES (new.`rowid`, new.`email`);
END;
