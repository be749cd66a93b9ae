CREATE TABLE "admins" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "admins_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"issued" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"retired" timestamp (3) with time zone,
	"revoked" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text COLLATE "C" NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"revoked" timestamp (3) with time zone,
	CONSTRAINT "sessions_kind" CHECK ("sessions"."kind" in ('admin', 'user'))
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text COLLATE "C" PRIMARY KEY NOT NULL,
	"algorithm" text NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"retires" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"app" jsonb NOT NULL,
	"active" smallint NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_active_flag" CHECK ("users"."active" in (0, 1))
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admins_created_id_idx" ON "admins" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "login_failures_key_at_idx" ON "login_failures" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "login_failures_at_idx" ON "login_failures" USING btree ("at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_subject_idx" ON "sessions" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "users_created_id_idx" ON "users" USING btree ("created","id");