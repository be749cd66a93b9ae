CREATE TABLE `admin_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`digest` text NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`invited_by` text,
	`created` integer NOT NULL,
	`expires` integer NOT NULL,
	`used` integer,
	CONSTRAINT "admin_invitations_role" CHECK("admin_invitations"."role" in ('owner', 'admin', 'support', 'auditor'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_invitations_digest_unique` ON `admin_invitations` (`digest`);--> statement-breakpoint
CREATE INDEX `admin_invitations_email_idx` ON `admin_invitations` (`email`);--> statement-breakpoint
ALTER TABLE `admins` ADD `role` text DEFAULT 'owner' NOT NULL;