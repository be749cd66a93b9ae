-- How the login of each session proved the account (RFC 8176 amr, comma-joined); the sessions opened
-- before it was recorded had only a password.
ALTER TABLE "sessions" ADD COLUMN "amr" text DEFAULT 'pwd' NOT NULL;