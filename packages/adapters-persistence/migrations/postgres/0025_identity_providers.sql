-- Identity providers, users' external identities (unique on provider and subject) and OAuth
-- attempts in flight; identities go with their user, identities and attempts with their provider.
-- The references name no schema: the service runs in the one DATABASE_SCHEMA sets (drizzle-kit
-- writes "public").
CREATE TABLE "external_identities" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"provider_id" text COLLATE "C" NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"email_verified" boolean NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"last_sign_in" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "identity_providers" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"kind" text NOT NULL,
	"issuer" text,
	"client_id" text NOT NULL,
	"client_secret_key" text,
	"client_secret" text,
	"scopes" jsonb NOT NULL,
	"enabled" boolean NOT NULL,
	"auto_link" boolean NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "identity_providers_slug_unique" UNIQUE("slug"),
	CONSTRAINT "identity_providers_kind" CHECK ("identity_providers"."kind" in ('oidc', 'github', 'google', 'microsoft', 'apple')),
	CONSTRAINT "identity_providers_secret_sealed" CHECK (("identity_providers"."client_secret_key" is null) = ("identity_providers"."client_secret" is null))
);
--> statement-breakpoint
CREATE TABLE "oauth_attempts" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"provider_id" text COLLATE "C" NOT NULL,
	"purpose" text NOT NULL,
	"user_id" text COLLATE "C",
	"redirect_to" text NOT NULL,
	"code_challenge" text NOT NULL,
	"handoff_digest" text,
	"state_digest" text NOT NULL,
	"browser_digest" text,
	"nonce" text NOT NULL,
	"verifier_key" text NOT NULL,
	"verifier" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"state_used" timestamp (3) with time zone,
	"code_digest" text,
	"code_expires" timestamp (3) with time zone,
	"code_used" timestamp (3) with time zone,
	"account" jsonb,
	CONSTRAINT "oauth_attempts_handoff_digest_unique" UNIQUE("handoff_digest"),
	CONSTRAINT "oauth_attempts_state_digest_unique" UNIQUE("state_digest"),
	CONSTRAINT "oauth_attempts_code_digest_unique" UNIQUE("code_digest"),
	CONSTRAINT "oauth_attempts_purpose" CHECK ("oauth_attempts"."purpose" in ('sign_in', 'link'))
);
--> statement-breakpoint
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_attempts" ADD CONSTRAINT "oauth_attempts_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_identities_provider_subject_idx" ON "external_identities" USING btree ("provider_id","subject");--> statement-breakpoint
CREATE INDEX "external_identities_user_idx" ON "external_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "identity_providers_created_id_idx" ON "identity_providers" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "oauth_attempts_expires_idx" ON "oauth_attempts" USING btree ("expires");