-- The admin who opened a session by impersonating its user; null for a login. Removing the admin
-- removes the session. The reference names no schema: the service runs in the one DATABASE_SCHEMA
-- sets (drizzle-kit writes "public").
ALTER TABLE "sessions" ADD COLUMN "impersonator_id" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonator_id_admins_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "admins"("id") ON DELETE cascade ON UPDATE no action;