-- The second factor: factors (TOTP secrets sealed, passkeys), recovery codes as digests, and the
-- sign-ins awaiting their second step; each row goes with its admin or user.
CREATE TABLE "factors" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C",
	"admin_id" text COLLATE "C",
	"kind" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"activated" timestamp (3) with time zone,
	"last_used" timestamp (3) with time zone,
	"totp_key_id" text,
	"totp_ciphertext" text,
	"totp_last_step" bigint,
	"webauthn_challenge" text,
	"credential_id" text COLLATE "C",
	"credential_public_key" text,
	"credential_counter" bigint,
	"credential_transports" text,
	"credential_backed_up" boolean,
	CONSTRAINT "factors_credential_id_unique" UNIQUE("credential_id"),
	CONSTRAINT "factors_one_account" CHECK (("factors"."user_id" is null) <> ("factors"."admin_id" is null)),
	CONSTRAINT "factors_kind" CHECK ("factors"."kind" in ('totp', 'webauthn'))
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"user_id" text COLLATE "C",
	"admin_id" text COLLATE "C",
	"digest" text COLLATE "C" NOT NULL,
	"used" timestamp (3) with time zone,
	CONSTRAINT "recovery_codes_one_account" CHECK (("recovery_codes"."user_id" is null) <> ("recovery_codes"."admin_id" is null))
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"user_id" text COLLATE "C",
	"admin_id" text COLLATE "C",
	"kinds" text NOT NULL,
	"webauthn_challenge" text,
	"methods" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"completed" timestamp (3) with time zone,
	"client_address" text,
	"user_agent" text,
	CONSTRAINT "sign_in_challenges_owner" CHECK ("sign_in_challenges"."owner" in ('admin', 'user')),
	CONSTRAINT "sign_in_challenges_account" CHECK (("sign_in_challenges"."owner" = 'user' and "sign_in_challenges"."admin_id" is null) or ("sign_in_challenges"."owner" = 'admin' and "sign_in_challenges"."user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "factors" ADD CONSTRAINT "factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "factors" ADD CONSTRAINT "factors_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "factors_user_idx" ON "factors" USING btree ("user_id","created","id");--> statement-breakpoint
CREATE INDEX "factors_admin_idx" ON "factors" USING btree ("admin_id","created","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_digest_idx" ON "recovery_codes" USING btree ("user_id","digest");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_admin_digest_idx" ON "recovery_codes" USING btree ("admin_id","digest");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_expires_idx" ON "sign_in_challenges" USING btree ("expires");