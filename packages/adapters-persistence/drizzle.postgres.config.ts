import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/postgres/postgres-schema.ts',
  out: './migrations/postgres',
});
