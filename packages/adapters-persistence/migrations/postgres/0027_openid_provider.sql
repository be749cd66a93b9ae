CREATE TABLE "oauth_clients" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"application_type" text NOT NULL,
	"redirect_uris" jsonb NOT NULL,
	"post_logout_redirect_uris" jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"first_party" boolean NOT NULL,
	"id_token_signed_response_alg" text,
	"secret_key_id" text,
	"secret_ciphertext" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "oauth_clients_type" CHECK ("oauth_clients"."type" in ('public', 'confidential')),
	CONSTRAINT "oauth_clients_application_type" CHECK ("oauth_clients"."application_type" in ('web', 'native')),
	CONSTRAINT "oauth_clients_id_token_signed_response_alg" CHECK ("oauth_clients"."id_token_signed_response_alg" in ('ES256', 'EdDSA', 'RS256')),
	CONSTRAINT "oauth_clients_secret_sealed" CHECK (("oauth_clients"."secret_key_id" is null) = ("oauth_clients"."secret_ciphertext" is null))
);
--> statement-breakpoint
CREATE TABLE "openid_records" (
	"model" text NOT NULL,
	"id" text COLLATE "C" NOT NULL,
	"ord" bigserial NOT NULL,
	"payload" text NOT NULL,
	"grant_id" text COLLATE "C",
	"uid" text COLLATE "C",
	"account_id" text COLLATE "C",
	"client_id" text COLLATE "C",
	"expires" timestamp (3) with time zone,
	"consumed" timestamp (3) with time zone,
	CONSTRAINT "openid_records_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE INDEX "oauth_clients_created_id_idx" ON "oauth_clients" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "openid_records_grant_idx" ON "openid_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "openid_records_uid_idx" ON "openid_records" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "openid_records_account_idx" ON "openid_records" USING btree ("account_id","model","ord");--> statement-breakpoint
CREATE INDEX "openid_records_client_idx" ON "openid_records" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "openid_records_expires_idx" ON "openid_records" USING btree ("expires");