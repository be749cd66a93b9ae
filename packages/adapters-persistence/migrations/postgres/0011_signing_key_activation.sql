-- Each key signs from its activation time; a key stored before there was one has signed since it
-- was created.
ALTER TABLE "signing_keys" ADD COLUMN "activates" timestamp (3) with time zone;
--> statement-breakpoint
UPDATE "signing_keys" SET "activates" = "created";
--> statement-breakpoint
ALTER TABLE "signing_keys" ALTER COLUMN "activates" SET NOT NULL;
