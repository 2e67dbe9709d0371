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
  // The plugin's layers (docs/ARCHITECTURE.md): each folder imports only those beneath it, and data
  // access stays in repositories/ (and the infrastructure they stand on). Type-only imports are free.
  ...layers({
    utils: ['*'],
    domain: [
      'services',
      'repositories',
      'commands',
      'controllers',
      'mcp',
      'middlewares',
      'document-middlewares',
      'infrastructure',
      'presenters',
      'validation',
    ],
    validation: [
      'services',
      'repositories',
      'commands',
      'controllers',
      'mcp',
      'middlewares',
      'document-middlewares',
      'infrastructure',
      'presenters',
    ],
    repositories: ['services', 'commands', 'controllers', 'mcp', 'middlewares', 'document-middlewares', 'presenters', 'validation'],
    infrastructure: ['services', 'repositories', 'commands', 'controllers', 'mcp', 'middlewares', 'document-middlewares', 'presenters'],
    presenters: ['commands', 'controllers', 'mcp', 'middlewares', 'document-middlewares', 'policies'],
    services: ['commands', 'controllers', 'mcp', 'middlewares', 'policies'],
    commands: ['controllers', 'mcp', 'middlewares', 'policies'],
  }),
  {
    files: ['src/plugins/artikel/server/src/**/*.ts'],
    ignores: ['src/plugins/artikel/server/src/repositories/**', 'src/plugins/artikel/server/src/infrastructure/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='query'][object.property.name='db']",
          message: 'Data access belongs in repositories/: add a function there (docs/ARCHITECTURE.md).',
        },
      ],
    },
  },
  prettier,
);

/** One configuration per folder of the plugin's server, forbidding imports of the folders above it. */
function layers(forbidden) {
  return Object.entries(forbidden).map(([folder, above]) => ({
    files: [`src/plugins/artikel/server/src/${folder}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: above
                .map((name) => (name === '*' ? '../*' : `../${name}/**`))
                .concat(above.includes('*') ? [] : above.map((name) => `../${name}`)),
              allowTypeImports: true,
              message: `${folder}/ may not import from a layer above it (docs/ARCHITECTURE.md): move the code down, or call it from above.`,
            },
          ],
        },
      ],
    },
  }));
}
