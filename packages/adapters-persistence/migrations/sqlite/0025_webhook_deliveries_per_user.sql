DROP INDEX `webhook_deliveries_webhook_seq_idx`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_due_idx` ON `webhook_deliveries` (`webhook_id`,`status`,`next_attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_seq_idx` ON `webhook_deliveries` (`webhook_id`,`seq`);