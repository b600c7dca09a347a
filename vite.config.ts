import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app lives in web/; the build goes to dist/web, which the server serves on one port.
export default defineConfig({
  root: path.resolve('web'),
  plugins: [react()],
  // WEB_OUT_DIR lets parallel builds (e.g. two e2e runs) use their own folder; the server reads WEB_DIR.
  build: { outDir: path.resolve(process.env.WEB_OUT_DIR ?? 'dist/web'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/apidocs': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
    },
  },
});
