ALTER TABLE `users` ADD `email_verified` integer;--> statement-breakpoint
-- Every user so far was created or imported by an admin, whose word verifies the address: as of its creation.
UPDATE `users` SET `email_verified` = `created`;
