CREATE TABLE `audit_chain` (
	`id` integer PRIMARY KEY NOT NULL,
	`head_seq` integer NOT NULL,
	`head_hash` text,
	`cut_seq` integer NOT NULL,
	`cut_hash` text,
	CONSTRAINT "audit_chain_single_row" CHECK("audit_chain"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `audit_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`time` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`changes` text,
	`request_id` text,
	`client_address` text,
	`user_agent` text,
	`previous_hash` text,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_events_id_unique` ON `audit_events` (`id`);--> statement-breakpoint
CREATE INDEX `audit_events_time_idx` ON `audit_events` (`time`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_target_idx` ON `audit_events` (`target_id`,`time`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_actor_idx` ON `audit_events` (`actor_id`,`time`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_action_idx` ON `audit_events` (`action`,`time`,`seq`);