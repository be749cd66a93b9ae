import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/sqlite/sqlite-schema.ts',
  out: './migrations/sqlite',
});
