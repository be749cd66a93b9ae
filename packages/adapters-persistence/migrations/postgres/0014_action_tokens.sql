-- Single-use tokens (verification, recovery, email change, invitation), stored only as a keyed digest.
CREATE TABLE "action_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"digest" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"email" text,
	"created" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"used" timestamp (3) with time zone,
	CONSTRAINT "action_tokens_digest_unique" UNIQUE("digest")
);
--> statement-breakpoint
ALTER TABLE "action_tokens" ADD CONSTRAINT "action_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_tokens_user_id_idx" ON "action_tokens" USING btree ("user_id");