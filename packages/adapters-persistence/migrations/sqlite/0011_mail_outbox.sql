-- The outbox of mail, and the key ring of secrets that seals its bodies (one current secret per
-- purpose, kept by a partial unique index).
CREATE TABLE `mail_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`body_key` text,
	`body` text,
	`created` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text,
	`delivered_at` integer,
	CONSTRAINT "mail_messages_status" CHECK("mail_messages"."status" in ('queued', 'sending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `mail_messages_created_id_idx` ON `mail_messages` (`created`,`id`);--> statement-breakpoint
CREATE INDEX `mail_messages_due_idx` ON `mail_messages` (`next_attempt_at`) WHERE "mail_messages"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE TABLE `secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`material` text NOT NULL,
	`created` integer NOT NULL,
	`retired` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secrets_current_idx` ON `secrets` (`purpose`) WHERE "secrets"."retired" is null;
