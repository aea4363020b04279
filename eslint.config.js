// ESLint (flat config): typescript-eslint's recommended rules for every TypeScript file, and
// eslint-config-prettier last so that formatting is Prettier's alone (`npm run format`).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');

module.exports = tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'examples/**/node_modules/', 'tests/fixtures/', 'bench/.data/', '**/*.tmp.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', Buffer: 'readonly' },
    },
    rules: {
      // `_name` marks a value a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Tests and wire code read untyped JSON; `any` stays visible in review rather than banned.
      '@typescript-eslint/no-explicit-any': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // CommonJS config files.
    files: ['*.js', 'scripts/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The console's page script: plain ES5 in the browser (no build step, so no arrow functions).
    files: ['backend-emulator/console/static/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        document: 'readonly',
        window: 'readonly',
        location: 'readonly',
        history: 'readonly',
        sessionStorage: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        Event: 'readonly',
        XMLHttpRequest: 'readonly',
        setTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  prettier,
);
