/**
 * GraphQL Code Generator: typed documents for the operations tests use.
 * Reads the printed schema (schema.graphql, kept fresh by `npm run
 * schema:print`) and test/operations/**\/*.graphql; writes test/generated/.
 * Run with `npm run codegen`.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  overwrite: true,
  schema: 'schema.graphql',
  documents: ['test/operations/**/*.graphql'],
  ignoreNoDocuments: false,
  // NodeNext: relative imports in the generated files end in `.js`.
  emitLegacyCommonJSImports: false,
  generates: {
    'test/generated/': {
      preset: 'client',
      presetConfig: {
        // Only the typed documents: tests import them directly, no graphql() tag.
        fragmentMasking: false,
      },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          DateTime: 'string',
          JSON: 'unknown',
          File: 'File',
        },
      },
    },
  },
};

export default config;
