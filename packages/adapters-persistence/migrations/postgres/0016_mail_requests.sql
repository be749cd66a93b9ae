CREATE TABLE "mail_requests" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"request_id" text,
	"client_address" text,
	"user_agent" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "mail_requests_created_idx" ON "mail_requests" USING btree ("created");