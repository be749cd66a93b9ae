CREATE TABLE `mail_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`email` text NOT NULL,
	`created` integer NOT NULL,
	`request_id` text,
	`client_address` text,
	`user_agent` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`lease_until` integer
);
--> statement-breakpoint
CREATE INDEX `mail_requests_created_idx` ON `mail_requests` (`created`);