/**
 * Build of the web client: `npm run build:web` → web/dist, served by the API
 * server at `/` (src/web/serve.ts). Hashed file names under assets/ let the
 * server mark them immutable; index.html is served no-cache.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import codegenConfig from '../scripts/codegen-web.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

/** {operation name: persisted id}, filled by `persistedDocuments` before anything is bundled. */
const persistedIds: Record<string, string> = {};

/**
 * Runs GraphQL Code Generator over the client's operations
 * (scripts/codegen-web.ts → web/generated/persisted-documents.json), bakes
 * {operation name: id} into the client as `__PERSISTED_IDS__`, and copies the
 * manifest into the build as persisted-documents.json: the server reads it
 * from web/dist, so the ids it knows are always those of the client it serves.
 */
function persistedDocuments(): Plugin {
  let manifest = '';
  return {
    name: 'persisted-documents',
    apply: 'build',
    async config() {
      const cwd = process.cwd();
      process.chdir(repo);
      try {
        await generate(codegenConfig, true);
      } finally {
        process.chdir(cwd);
      }
      manifest = await readFile(`${repo}web/generated/persisted-documents.json`, 'utf8');
      for (const [id, document] of Object.entries(JSON.parse(manifest) as Record<string, string>)) {
        const name = /(?:^|\s)(?:query|mutation|subscription) (\w+)/.exec(document)?.[1];
        if (!name) throw new Error(`persisted-documents: no operation name in ${id}`);
        persistedIds[name] = id;
      }
      return { define: { __PERSISTED_IDS__: JSON.stringify(persistedIds) } };
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'persisted-documents.json', source: manifest });
    },
  };
}

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
          define: {
            __ROUTE_CHUNKS__: JSON.stringify({ chat: closure('chat'), share: closure('share') }),
            __PERSISTED_IDS__: JSON.stringify(persistedIds),
          },
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
  plugins: [persistedDocuments(), inlineBoot()],
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
