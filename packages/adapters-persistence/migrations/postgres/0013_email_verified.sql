ALTER TABLE "users" ADD COLUMN "email_verified" timestamp (3) with time zone;--> statement-breakpoint
-- Every user so far was created or imported by an admin, whose word verifies the address: as of its creation.
UPDATE "users" SET "email_verified" = "created";
