-- Audit events committed with their change and waiting for the sequencer to give them their place in the chain.
CREATE TABLE `audit_pending` (
	`id` text PRIMARY KEY NOT NULL,
	`time` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`changes` text,
	`request_id` text,
	`client_address` text,
	`user_agent` text
);
