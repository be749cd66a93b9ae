-- The admin who opened a session by impersonating its user; null for a login. Removing the admin
-- removes the session (drizzle-kit leaves ON DELETE out of an added column's reference, so it is
-- written here as the schema declares it).
ALTER TABLE `sessions` ADD `impersonator_id` text REFERENCES `admins`(`id`) ON DELETE cascade;
