/**
 * Build of the web client: `npm run build:web` → web/dist, served by the API
 * server at `/` (src/web/serve.ts). Hashed file names under assets/ let the
 * server mark them immutable; index.html is served no-cache.
 */
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Inlines src/boot.ts (bundled, minified, an IIFE) into index.html before the
 * entry module, with the file names of the chat page's and the share viewer's
 * chunks (and what they import) baked in. The server allows exactly this
 * script through a sha256 source in its CSP, computed from the built file.
 */
function inlineBoot(): Plugin {
  return {
    name: 'inline-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const closure = (page: string): string[] => {
          const start = chunks.find((c) => c.facadeModuleId?.endsWith(`/src/${page}.ts`));
          if (!start) throw new Error(`inline-boot: no chunk for src/${page}.ts`);
          const files = new Set<string>();
          const visit = (fileName: string) => {
            const chunk = chunks.find((c) => c.fileName === fileName);
            if (!chunk || chunk.isEntry || files.has(fileName)) return;
            files.add(fileName);
            chunk.imports.forEach(visit);
          };
          visit(start.fileName);
          return [...files].map((f) => `/${f}`);
        };
        const out = await esbuild({
          entryPoints: [fileURLToPath(new URL('src/boot.ts', import.meta.url))],
          bundle: true,
          minify: true,
          write: false,
          format: 'iife',
          target: 'es2022',
          charset: 'ascii',
          legalComments: 'none',
          define: { __ROUTE_CHUNKS__: JSON.stringify({ chat: closure('chat'), share: closure('share') }) },
        });
        const code = out.outputFiles[0]!.text.trim();
        if (code.includes('</')) throw new Error('inline-boot: the boot script contains "</"');
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('inline-boot: no entry script in index.html');
        return `${html.slice(0, at)}<script>${code}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  plugins: [inlineBoot()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // The CSP forbids inline scripts and styles: no inlined assets, no polyfill.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    // three.js (model-viewer.ts) is one lazily imported chunk of ~660 KB raw / ~165 KB gzip, off the first page.
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: {
    proxy: {
      '/graphql': { target: 'http://127.0.0.1:4000', ws: true },
      '/sessions': 'http://127.0.0.1:4000',
    },
  },
});
