import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The web app's layers, top to bottom: app/ (shell, router, routes) composes the features; a
 * feature uses only components/, lib/, config/ and the contract.
 */
const webElements = [
  { type: 'web-app', pattern: 'apps/web/src/app' },
  { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
  { type: 'web-components', pattern: 'apps/web/src/components' },
  { type: 'web-lib', pattern: 'apps/web/src/lib' },
  { type: 'web-config', pattern: 'apps/web/src/config' },
];

const toAnyOf = (...types) => ({ to: { element: { types: { anyOf: types } } } });

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/drizzle/**', 'data/**', 'e2e/artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: { 'boundaries/elements': webElements, 'boundaries/include': ['apps/web/src/**/*'] },
    rules: {
      // Files within one element (one feature, or app/) import each other freely; between
      // elements, imports only go down. A feature never imports another feature.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            { from: { element: { type: 'web-feature' } }, disallow: toAnyOf('web-app', 'web-feature') },
            {
              from: { element: { types: { anyOf: ['web-components', 'web-lib', 'web-config'] } } },
              disallow: toAnyOf('web-app', 'web-feature'),
            },
            { from: { element: { types: { anyOf: ['web-lib', 'web-config'] } } }, disallow: toAnyOf('web-components') },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
