// Lint rules of STYLE S8: type-aware typescript-eslint, one-way import arrows, no enums, config only via loadConfig.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['proto/gen/**', 'node_modules/**', 'dist/**', 'data/**', '.cassandra/**', '.tmp/**', 'eslint.config.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
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
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use an as-const object (S2).' },
        { selector: 'TSModuleDeclaration[kind="namespace"]', message: 'No namespaces (S2).' },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Use loadConfig() (S6).' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './actors', from: ['./cluster', './src/http', './src/gateway', './src/store', './src/config'] },
            { target: './cluster', from: ['./src/http', './src/gateway', './src/store', './src/config'] },
            { target: ['./src/http', './src/gateway'], from: ['./actors', './src/store'] },
            { target: './src/domain', from: ['./actors', './cluster', './src/http', './src/gateway', './src/store'] },
            { target: './src/store', from: ['./cluster', './src/http', './src/gateway'] },
          ],
        },
      ],
    },
  },
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
