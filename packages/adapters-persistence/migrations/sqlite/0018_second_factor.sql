-- The second factor: factors (TOTP secrets sealed, passkeys), recovery codes as digests, and the
-- sign-ins awaiting their second step; each row goes with its admin or user.
CREATE TABLE `factors` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`admin_id` text,
	`kind` text NOT NULL,
	`created` integer NOT NULL,
	`activated` integer,
	`last_used` integer,
	`totp_key_id` text,
	`totp_ciphertext` text,
	`totp_last_step` integer,
	`webauthn_challenge` text,
	`credential_id` text,
	`credential_public_key` text,
	`credential_counter` integer,
	`credential_transports` text,
	`credential_backed_up` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "factors_one_account" CHECK(("factors"."user_id" is null) <> ("factors"."admin_id" is null)),
	CONSTRAINT "factors_kind" CHECK("factors"."kind" in ('totp', 'webauthn'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `factors_credential_id_unique` ON `factors` (`credential_id`);--> statement-breakpoint
CREATE INDEX `factors_user_idx` ON `factors` (`user_id`,`created`,`id`);--> statement-breakpoint
CREATE INDEX `factors_admin_idx` ON `factors` (`admin_id`,`created`,`id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`user_id` text,
	`admin_id` text,
	`digest` text NOT NULL,
	`used` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "recovery_codes_one_account" CHECK(("recovery_codes"."user_id" is null) <> ("recovery_codes"."admin_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recovery_codes_user_digest_idx` ON `recovery_codes` (`user_id`,`digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `recovery_codes_admin_digest_idx` ON `recovery_codes` (`admin_id`,`digest`);--> statement-breakpoint
CREATE TABLE `sign_in_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`user_id` text,
	`admin_id` text,
	`kinds` text NOT NULL,
	`webauthn_challenge` text,
	`methods` text NOT NULL,
	`created` integer NOT NULL,
	`expires` integer NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`completed` integer,
	`client_address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sign_in_challenges_owner" CHECK("sign_in_challenges"."owner" in ('admin', 'user')),
	CONSTRAINT "sign_in_challenges_account" CHECK(("sign_in_challenges"."owner" = 'user' and "sign_in_challenges"."admin_id" is null) or ("sign_in_challenges"."owner" = 'admin' and "sign_in_challenges"."user_id" is null))
);
--> statement-breakpoint
CREATE INDEX `sign_in_challenges_expires_idx` ON `sign_in_challenges` (`expires`);