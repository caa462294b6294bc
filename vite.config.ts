import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The UI: built into dist/renderer, which the engine serves on its own origin (`ui:` line of `serve`). */
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No inline scripts or styles: the engine's Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
  },
});
