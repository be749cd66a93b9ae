-- Single-use tokens (verification, recovery, email change, invitation), stored only as a keyed digest.
CREATE TABLE `action_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`digest` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text,
	`created` integer NOT NULL,
	`expires` integer NOT NULL,
	`used` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_tokens_digest_unique` ON `action_tokens` (`digest`);--> statement-breakpoint
CREATE INDEX `action_tokens_user_id_idx` ON `action_tokens` (`user_id`);