-- Webhook endpoints (their signing secrets sealed) and their deliveries, which go with them. The
-- reference names no schema: the service runs in the one DATABASE_SCHEMA sets (drizzle-kit
-- writes "public").
CREATE TABLE "webhook_deliveries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"webhook_id" text COLLATE "C" NOT NULL,
	"seq" bigint,
	"event_type" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt" timestamp (3) with time zone NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"last_status" integer,
	"last_error" text,
	"last_duration_ms" integer,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	"delivered" timestamp (3) with time zone,
	CONSTRAINT "webhook_deliveries_status" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"enabled" boolean NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret_key" text NOT NULL,
	"secret" text NOT NULL,
	"previous_secret_key" text,
	"previous_secret" text,
	"previous_secret_until" timestamp (3) with time zone,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"failing_since" timestamp (3) with time zone,
	"disabled_reason" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhooks_disabled_reason" CHECK ("webhooks"."disabled_reason" in ('gone', 'failing'))
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_webhook_seq_idx" ON "webhook_deliveries" USING btree ("webhook_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_created_idx" ON "webhook_deliveries" USING btree ("webhook_id","created");--> statement-breakpoint
CREATE INDEX "webhooks_created_id_idx" ON "webhooks" USING btree ("created","id");