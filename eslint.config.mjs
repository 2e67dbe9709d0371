// ESLint's flat configuration: JavaScript's and typescript-eslint's recommended rules over the app,
// the plugin, the tests, the scripts and the benchmark; formatting is Prettier's (eslint-config-prettier
// turns off the rules it owns). `npm run lint` runs both, with no warning allowed.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'build/',
      '.cache/',
      '.tmp/',
      '.strapi/',
      'node_modules/',
      'types/generated/',
      'bench/.data/',
      'bench/results/',
      'tests/browser/artifacts/',
      'public/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A name starting with "_" says it is left unused on purpose (a destructured field left out, say).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // The text pipeline's patterns match control characters on purpose: to drop or refuse them.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    // CommonJS requires; a module may name its own `crypto` (Node's global is the Web Crypto one).
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-redeclare': ['error', { builtinGlobals: false }] },
  },
  prettier,
);
