-- Webhook endpoints (their signing secrets sealed) and their deliveries, which go with them.
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`seq` integer,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt` integer NOT NULL,
	`lease_until` integer,
	`last_status` integer,
	`last_error` text,
	`last_duration_ms` integer,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`delivered` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_deliveries_status" CHECK("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_webhook_seq_idx` ON `webhook_deliveries` (`webhook_id`,`seq`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_created_idx` ON `webhook_deliveries` (`webhook_id`,`created`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`enabled` integer NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`secret_key` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret_key` text,
	`previous_secret` text,
	`previous_secret_until` integer,
	`cursor` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`disabled_reason` text,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	CONSTRAINT "webhooks_enabled_flag" CHECK("webhooks"."enabled" in (0, 1)),
	CONSTRAINT "webhooks_disabled_reason" CHECK("webhooks"."disabled_reason" in ('gone', 'failing'))
);
--> statement-breakpoint
CREATE INDEX `webhooks_created_id_idx` ON `webhooks` (`created`,`id`);