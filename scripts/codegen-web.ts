/**
 * GraphQL Code Generator for the web client: the client preset with
 * `persistedDocuments`, over the operations of web/src/*.ts
 * (scripts/web-operations.ts), writes web/generated/ — typed documents and
 * persisted-documents.json, the manifest {sha256 hex of the normalized
 * document: document}. Run by `npm run build:web` before Vite, which bakes
 * {operation name: id} into the client and copies the manifest to
 * web/dist/persisted-documents.json, where the server reads it
 * (PERSISTED_OPERATIONS, src/http/persisted.ts).
 */
import { createHash } from 'node:crypto';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { webOperationsDocument } from './web-operations.js';

const config: CodegenConfig = {
  overwrite: true,
  silent: true,
  schema: 'schema.graphql',
  documents: [webOperationsDocument()],
  emitLegacyCommonJSImports: false,
  generates: {
    'web/generated/': {
      preset: 'client',
      presetConfig: {
        fragmentMasking: false,
        // Bare hex (what `extensions.persistedQuery.sha256Hash` carries), not the preset's `sha256:` prefix.
        persistedDocuments: {
          hashAlgorithm: (operation: string) => createHash('sha256').update(operation).digest('hex'),
        },
      },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown', File: 'File' },
      },
    },
  },
};

export default config;
