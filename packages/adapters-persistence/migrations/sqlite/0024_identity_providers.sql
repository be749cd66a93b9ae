-- Identity providers, users' external identities (unique on provider and subject) and OAuth
-- attempts in flight; identities go with their user, identities and attempts with their provider.
CREATE TABLE `external_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`subject` text NOT NULL,
	`email` text,
	`email_verified` integer NOT NULL,
	`created` integer NOT NULL,
	`last_sign_in` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "external_identities_email_verified_flag" CHECK("external_identities"."email_verified" in (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `external_identities_provider_subject_idx` ON `external_identities` (`provider_id`,`subject`);--> statement-breakpoint
CREATE INDEX `external_identities_user_idx` ON `external_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `identity_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`kind` text NOT NULL,
	`issuer` text,
	`client_id` text NOT NULL,
	`client_secret_key` text,
	`client_secret` text,
	`scopes` text NOT NULL,
	`enabled` integer NOT NULL,
	`auto_link` integer NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	CONSTRAINT "identity_providers_kind" CHECK("identity_providers"."kind" in ('oidc', 'github', 'google', 'microsoft', 'apple')),
	CONSTRAINT "identity_providers_enabled_flag" CHECK("identity_providers"."enabled" in (0, 1)),
	CONSTRAINT "identity_providers_auto_link_flag" CHECK("identity_providers"."auto_link" in (0, 1)),
	CONSTRAINT "identity_providers_secret_sealed" CHECK(("identity_providers"."client_secret_key" is null) = ("identity_providers"."client_secret" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_providers_slug_unique` ON `identity_providers` (`slug`);--> statement-breakpoint
CREATE INDEX `identity_providers_created_id_idx` ON `identity_providers` (`created`,`id`);--> statement-breakpoint
CREATE TABLE `oauth_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`redirect_to` text NOT NULL,
	`code_challenge` text NOT NULL,
	`handoff_digest` text,
	`state_digest` text NOT NULL,
	`browser_digest` text,
	`nonce` text NOT NULL,
	`verifier_key` text NOT NULL,
	`verifier` text NOT NULL,
	`created` integer NOT NULL,
	`expires` integer NOT NULL,
	`state_used` integer,
	`code_digest` text,
	`code_expires` integer,
	`code_used` integer,
	`account` text,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "oauth_attempts_purpose" CHECK("oauth_attempts"."purpose" in ('sign_in', 'link'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_attempts_handoff_digest_unique` ON `oauth_attempts` (`handoff_digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_attempts_state_digest_unique` ON `oauth_attempts` (`state_digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_attempts_code_digest_unique` ON `oauth_attempts` (`code_digest`);--> statement-breakpoint
CREATE INDEX `oauth_attempts_expires_idx` ON `oauth_attempts` (`expires`);