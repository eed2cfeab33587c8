// In this repository the starter builds the package from its source (../../src), so nothing needs building first.
// Copied elsewhere: `npm install /path/to/naval-umpire-client-1.11.0.tgz` (see ../../README.md) and delete `alias`.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@naval-umpire\/client$/, replacement: `${src}client.ts` },
      { find: /^@naval-umpire\/client\/(decisions|types)$/, replacement: `${src}$1.ts` },
    ],
  },
});
