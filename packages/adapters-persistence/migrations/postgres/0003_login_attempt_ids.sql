ALTER TABLE "login_failures" ADD COLUMN "attempt" text;--> statement-breakpoint
CREATE INDEX "login_failures_attempt_idx" ON "login_failures" USING btree ("attempt");