CREATE TABLE "admin_invitations" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"digest" text NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"invited_by" text COLLATE "C",
	"created" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"used" timestamp (3) with time zone,
	CONSTRAINT "admin_invitations_digest_unique" UNIQUE("digest"),
	CONSTRAINT "admin_invitations_role" CHECK ("admin_invitations"."role" in ('owner', 'admin', 'support', 'auditor'))
);
--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "role" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
CREATE INDEX "admin_invitations_email_idx" ON "admin_invitations" USING btree ("email");--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_role" CHECK ("admins"."role" in ('owner', 'admin', 'support', 'auditor'));