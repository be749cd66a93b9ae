-- Audit events committed with their change and waiting for the sequencer to give them their place in the chain.
CREATE TABLE "audit_pending" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"ord" bigserial NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text COLLATE "C",
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text COLLATE "C",
	"changes" text,
	"request_id" text,
	"client_address" text,
	"user_agent" text
);
