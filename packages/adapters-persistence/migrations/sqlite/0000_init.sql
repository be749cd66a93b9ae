CREATE TABLE `admins` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admins_email_unique` ON `admins` (`email`);--> statement-breakpoint
CREATE INDEX `admins_created_id_idx` ON `admins` (`created`,`id`);--> statement-breakpoint
CREATE TABLE `login_failures` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_key_at_idx` ON `login_failures` (`key`,`at`);--> statement-breakpoint
CREATE INDEX `login_failures_at_idx` ON `login_failures` (`at`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`issued` integer NOT NULL,
	`expires` integer NOT NULL,
	`retired` integer,
	`revoked` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refresh_tokens_session_idx` ON `refresh_tokens` (`session_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`created` integer NOT NULL,
	`revoked` integer,
	CONSTRAINT "sessions_kind" CHECK("sessions"."kind" in ('admin', 'user'))
);
--> statement-breakpoint
CREATE INDEX `sessions_subject_idx` ON `sessions` (`kind`,`subject_id`);--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`algorithm` text NOT NULL,
	`private_jwk` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created` integer NOT NULL,
	`retires` integer
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`metadata` text NOT NULL,
	`app` text NOT NULL,
	`active` integer NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	CONSTRAINT "users_active_flag" CHECK("users"."active" in (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_created_id_idx` ON `users` (`created`,`id`);