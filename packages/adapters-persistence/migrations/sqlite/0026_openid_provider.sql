CREATE TABLE `oauth_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`application_type` text NOT NULL,
	`redirect_uris` text NOT NULL,
	`post_logout_redirect_uris` text NOT NULL,
	`scopes` text NOT NULL,
	`first_party` integer NOT NULL,
	`id_token_signed_response_alg` text,
	`secret_key_id` text,
	`secret_ciphertext` text,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	CONSTRAINT "oauth_clients_type" CHECK("oauth_clients"."type" in ('public', 'confidential')),
	CONSTRAINT "oauth_clients_application_type" CHECK("oauth_clients"."application_type" in ('web', 'native')),
	CONSTRAINT "oauth_clients_first_party_flag" CHECK("oauth_clients"."first_party" in (0, 1)),
	CONSTRAINT "oauth_clients_id_token_signed_response_alg" CHECK("oauth_clients"."id_token_signed_response_alg" in ('ES256', 'EdDSA', 'RS256')),
	CONSTRAINT "oauth_clients_secret_sealed" CHECK(("oauth_clients"."secret_key_id" is null) = ("oauth_clients"."secret_ciphertext" is null))
);
--> statement-breakpoint
CREATE INDEX `oauth_clients_created_id_idx` ON `oauth_clients` (`created`,`id`);--> statement-breakpoint
CREATE TABLE `openid_records` (
	`model` text NOT NULL,
	`id` text NOT NULL,
	`payload` text NOT NULL,
	`grant_id` text,
	`uid` text,
	`account_id` text,
	`client_id` text,
	`expires` integer,
	`consumed` integer,
	PRIMARY KEY(`model`, `id`)
);
--> statement-breakpoint
CREATE INDEX `openid_records_grant_idx` ON `openid_records` (`grant_id`);--> statement-breakpoint
CREATE INDEX `openid_records_uid_idx` ON `openid_records` (`model`,`uid`);--> statement-breakpoint
CREATE INDEX `openid_records_account_idx` ON `openid_records` (`account_id`,`model`);--> statement-breakpoint
CREATE INDEX `openid_records_client_idx` ON `openid_records` (`client_id`);--> statement-breakpoint
CREATE INDEX `openid_records_expires_idx` ON `openid_records` (`expires`);