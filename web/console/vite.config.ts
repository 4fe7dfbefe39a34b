import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The service team's console, served by the admin listener (ADMIN_HOST:ADMIN_PORT) at /console/. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web/console', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
  },
  server: { proxy: { '/admin': 'http://127.0.0.1:3001' } },
});
