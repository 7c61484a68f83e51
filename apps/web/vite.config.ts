import path from 'node:path';
import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { linguiVitePlugins } from '../../lingui/inline-english.ts';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** Mantine's ScrollArea gets useMergeRefs from src/lib/merge-refs.ts, not @floating-ui/react (see that file). */
function scrollAreaWithoutFloatingUi(): Plugin {
  const scrollArea = `${path.sep}@mantine${path.sep}core${path.sep}esm${path.sep}components${path.sep}ScrollArea${path.sep}`;
  return {
    name: 'scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer?.includes(scrollArea))
        return path.resolve(import.meta.dirname, 'src/lib/merge-refs.ts');
    },
  };
}

export default defineConfig({
  plugins: [
    scrollAreaWithoutFloatingUi(),
    // Lingui's macros (t, Trans, Plural) become message lookups before React's transform; the
    // catalogs (PO files) compile as they are imported (docs/decisions/languages.md).
    ...linguiVitePlugins(),
    react(),
    // Every text file gets .br and .gz twins at build, served by Accept-Encoding
    // (apps/server/src/plugins/web-app.ts): brotli at its best quality, paid once here.
    compression({
      include: /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|ico)$/,
      threshold: 0,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  resolve: {
    alias: {
      'use-sync-external-store/shim': path.resolve(import.meta.dirname, 'src/lib/use-sync-external-store-shim.ts'),
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    // WEB_DIST, as the server reads it (relative to where npm was started): the build goes
    // where the portal will serve it from. Unset: apps/web/dist.
    outDir: process.env.WEB_DIST ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.WEB_DIST) : 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each route loads (bench/bundle.ts checks the budgets).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Whatever the entry imports statically loads with every page: one chunk, not a
          // dozen small ones shared with the routes (fewer requests, better compression).
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
});
