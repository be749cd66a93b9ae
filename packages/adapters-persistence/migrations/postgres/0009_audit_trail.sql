CREATE TABLE "audit_chain" (
	"id" smallint PRIMARY KEY NOT NULL,
	"head_seq" bigint NOT NULL,
	"head_hash" text,
	"cut_seq" bigint NOT NULL,
	"cut_hash" text,
	CONSTRAINT "audit_chain_single_row" CHECK ("audit_chain"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"id" text COLLATE "C" NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text COLLATE "C",
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text COLLATE "C",
	"changes" text,
	"request_id" text,
	"client_address" text,
	"user_agent" text,
	"previous_hash" text,
	"hash" text NOT NULL,
	CONSTRAINT "audit_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE INDEX "audit_events_time_idx" ON "audit_events" USING btree ("time","seq");--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_id","time","seq");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","time","seq");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","time","seq");