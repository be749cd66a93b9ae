-- Admins' invitations: each with the user it made, pending until the invitee sets a password.
CREATE TABLE "invitations" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"invited_by" text COLLATE "C",
	"created" timestamp (3) with time zone NOT NULL,
	"sent" timestamp (3) with time zone NOT NULL,
	"expires" timestamp (3) with time zone NOT NULL,
	"accepted" timestamp (3) with time zone,
	CONSTRAINT "invitations_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_pending_idx" ON "invitations" USING btree ("created","id") WHERE "invitations"."accepted" is null;