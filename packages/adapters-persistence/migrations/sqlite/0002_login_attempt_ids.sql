ALTER TABLE `login_failures` ADD `attempt` text;--> statement-breakpoint
CREATE INDEX `login_failures_attempt_idx` ON `login_failures` (`attempt`);