import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import lingui from 'eslint-plugin-lingui';
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

/**
 * The files whose words must be translated (issue 43): a literal a person would read is an
 * error there (docs/decisions/languages.md § The web app). The whole web app, the mails'
 * templates and the prescription PDF's drawing (their words are descriptors in the server's
 * catalog: apps/server/src/mail/templates.ts, services/prescription/pdf-messages.ts).
 */
const translatedFiles = ['apps/web/src/**/*.{ts,tsx}'];
const translatedServerFiles = [
  'apps/server/src/mail/templates.ts',
  'apps/server/src/services/prescription/{render-prescription,tooth-chart,pdf-layout,pdf-script}.ts',
];

// Literals no person reads: single lower-case tokens (keys, CSS values, routes), UPPER_CASE
// constants, punctuation alone; attributes and calls that take code, not words.
const unlocalizedStrings = {
  useTsTypes: true,
  ignore: ['^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', '^[^A-Za-z]*$', '^(GET|POST|PUT|PATCH|DELETE|HEAD) /'],
  ignoreNames: [
    { regex: { pattern: 'className|classNames|style', flags: 'i' } },
    { regex: { pattern: '^[A-Z0-9_-]+$' } },
    ...['src', 'srcSet', 'type', 'id', 'width', 'height', 'displayName', 'href', 'to', 'path', 'accept'],
    ...['autoComplete', 'name', 'role', 'variant', 'color', 'size', 'key', 'mode', 'inputMode', 'method', 'target'],
    ...['userType', 'rel', 'dir', 'lang', 'data-testid', 'queryKey', 'mimeType', 'contentType', 'accessor', 'field'],
  ],
  ignoreFunctions: [
    ...['Error', 'console.*', '*.addEventListener', '*.removeEventListener', '*.postMessage'],
    ...['*.getElementById', '*.querySelector', '*.querySelectorAll', '*.closest', '*.matches'],
    ...['*.includes', '*.startsWith', '*.endsWith', '*.indexOf', '*.split', '*.join', '*.replace'],
    ...['*.getItem', '*.setItem', '*.removeItem', '*.setAttribute', '*.getAttribute', '*.hasAttribute'],
    ...[
      '*.getExtension',
      'navigate',
      '*.call',
      '*.callWithHeaders',
      'URL',
      'URLSearchParams',
      '*.searchParams.*',
      'dayjs',
      '*.format',
      'import',
    ],
  ],
};

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
    files: translatedFiles,
    // Tests, test helpers and the web workers' codes (worded on the page: lib/mesh-failure.ts).
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/testing/**'],
    plugins: { lingui },
    rules: {
      'lingui/no-unlocalized-strings': ['error', unlocalizedStrings],
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
      'lingui/no-expression-in-message': 'error',
      'lingui/no-trans-inside-trans': 'error',
    },
  },
  {
    // The server has no macros: its words are /*i18n*/ descriptors ({ id, message }) of its catalog.
    files: translatedServerFiles,
    plugins: { lingui },
    rules: {
      'lingui/no-unlocalized-strings': [
        'error',
        { ...unlocalizedStrings, ignoreNames: [...unlocalizedStrings.ignoreNames, 'id', 'message', 'html'] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
