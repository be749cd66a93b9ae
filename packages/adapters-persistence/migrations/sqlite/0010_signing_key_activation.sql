-- Each key signs from its activation time; a key stored before there was one has signed since it
-- was created. SQLite cannot add a NOT NULL column without a default, so the table is rebuilt.
CREATE TABLE `__new_signing_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`algorithm` text NOT NULL,
	`private_jwk` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created` integer NOT NULL,
	`activates` integer NOT NULL,
	`retires` integer
);
--> statement-breakpoint
INSERT INTO `__new_signing_keys` (`kid`, `algorithm`, `private_jwk`, `public_jwk`, `created`, `activates`, `retires`)
SELECT `kid`, `algorithm`, `private_jwk`, `public_jwk`, `created`, `created`, `retires` FROM `signing_keys`;
--> statement-breakpoint
DROP TABLE `signing_keys`;
--> statement-breakpoint
ALTER TABLE `__new_signing_keys` RENAME TO `signing_keys`;
