CREATE TABLE `rate_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_ends` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_counters_window_ends_idx` ON `rate_counters` (`window_ends`);