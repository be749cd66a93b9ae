-- Admins' invitations: each with the user it made, pending until the invitee sets a password.
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`invited_by` text,
	`created` integer NOT NULL,
	`sent` integer NOT NULL,
	`expires` integer NOT NULL,
	`accepted` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_user_id_unique` ON `invitations` (`user_id`);--> statement-breakpoint
CREATE INDEX `invitations_pending_idx` ON `invitations` (`created`,`id`) WHERE "invitations"."accepted" is null;