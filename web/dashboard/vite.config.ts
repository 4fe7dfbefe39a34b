import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The merchant dashboard, served by the merchant host at /dashboard/. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web/dashboard', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
  },
  server: { proxy: { '/dashboard/api': 'http://127.0.0.1:3000' } },
});
