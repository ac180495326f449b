import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `vite` (development only) sends /api to a running `skillopt dashboard`, whose port is in
// SKILLOPT_DASHBOARD_API_PORT; the built page is served by that command itself.
const apiPort = process.env.SKILLOPT_DASHBOARD_API_PORT;

export default defineConfig({
  plugins: [react()],
  // Relative asset URLs: the page works from whatever path it is served at.
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: apiPort === undefined ? {} : { proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: true } } },
});
