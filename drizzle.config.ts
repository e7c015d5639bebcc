import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this; migrations are applied from code (db/migrate.ts).
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./drizzle",
});
