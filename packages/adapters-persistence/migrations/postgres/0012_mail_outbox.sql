-- The outbox of mail, and the key ring of secrets that seals its bodies (one current secret per
-- purpose, kept by a partial unique index).
CREATE TABLE "mail_messages" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body_key" text,
	"body" text,
	"created" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"last_error" text,
	"delivered_at" timestamp (3) with time zone,
	CONSTRAINT "mail_messages_status" CHECK ("mail_messages"."status" in ('queued', 'sending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "secrets" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"material" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"retired" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "mail_messages_created_id_idx" ON "mail_messages" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "mail_messages_due_idx" ON "mail_messages" USING btree ("next_attempt_at") WHERE "mail_messages"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "secrets_current_idx" ON "secrets" USING btree ("purpose") WHERE "secrets"."retired" is null;
