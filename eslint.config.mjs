import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", "node_modules/**", "data/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
];

export default config;
