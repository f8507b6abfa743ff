// Lint rules of STYLE S8: type-aware typescript-eslint, one-way import arrows, no enums, config only via loadConfig.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// S2: no enums, no namespaces.
const houseSyntax = [
  { selector: 'TSEnumDeclaration', message: 'Use an as-const object (S2).' },
  { selector: 'TSModuleDeclaration[kind="namespace"]', message: 'No namespaces (S2).' },
];
// Actors decode a Discord body with bodyOf(Schema, text) and any other JSON to `unknown` (then narrow): a cast of
// parsed JSON would let a wrong shape through unnoticed.
const parsedJsonCast = ['TSAsExpression', 'TSTypeAssertion'].map((node) => ({
  selector: `${node}[expression.callee.object.name='JSON'][expression.callee.property.name='parse']`,
  message: 'Decode bodies with bodyOf(Schema, text); parse other JSON to unknown and narrow it.',
}));

export default tseslint.config(
  {
    ignores: ['proto/gen/**', 'node_modules/**', 'dist/**', 'data/**', '.cassandra/**', '.tmp/**', 'eslint.config.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    // Without a TypeScript resolver import-x cannot map `./x.js` to `./x.ts`, and the arrow rules below pass everything.
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json', alwaysTryTypes: true })],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      'import-x/no-cycle': 'error',
      'no-console': 'error',
      'max-lines': ['warn', 300],
      'no-restricted-syntax': ['error', ...houseSyntax],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Use loadConfig() (S6).' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          // DESIGN's arrows (CONTRIBUTING "Layout and arrows", STYLE S1): http/gateway → cluster → actors → domain →
          // proto/gen; store implements the actor ports; config imports option types only; src/main.ts and src/node
          // compose everything; tests, bench and scripts are free.
          zones: [
            {
              target: './actors',
              from: [
                './cluster',
                './src/http',
                './src/gateway',
                './src/voice',
                './src/store',
                './src/config',
                './src/node',
                './src/main.ts',
              ],
            },
            {
              target: './cluster',
              from: [
                './src/http',
                './src/gateway',
                './src/voice',
                './src/store',
                './src/config',
                './src/node',
                './src/main.ts',
              ],
            },
            {
              target: ['./src/http', './src/gateway', './src/voice'],
              from: ['./actors', './src/store', './src/node', './src/main.ts'],
            },
            {
              // The domain, and the contract (schemas, body types, bodyOf) shared by the edge and the actors, import
              // no layer above them (the contract may import the domain); nor does tracing, whose span helpers
              // every layer imports (edge, cluster transport, actor mailbox).
              target: ['./src/domain', './src/contract', './src/tracing'],
              from: [
                './actors',
                './cluster',
                './src/http',
                './src/gateway',
                './src/voice',
                './src/store',
                './src/config',
                './src/node',
                './src/main.ts',
              ],
            },
            {
              target: './src/store',
              from: [
                './cluster',
                './src/http',
                './src/gateway',
                './src/voice',
                './src/config',
                './src/node',
                './src/main.ts',
              ],
            },
            { target: './src/store', from: './actors', except: ['./runtime'] },
            {
              target: './src/config',
              from: ['./src/http', './src/gateway', './src/voice', './src/store', './src/node', './src/main.ts'],
            },
          ],
        },
      ],
    },
  },
  { files: ['actors/**'], rules: { 'no-restricted-syntax': ['error', ...houseSyntax, ...parsedJsonCast] } },
  { files: ['src/config/**', 'scripts/**', 'bench/**', 'test/**'], rules: { 'no-restricted-properties': 'off' } },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: false },
      globals: { process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', console: 'readonly' },
    },
  },
  prettier,
);
