// ESLint (`npm run lint`, zero warnings in CI): typescript-eslint's recommended rules everywhere,
// React's hook rules and Relay's rules in the web app, and a function-size budget.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import relay from 'eslint-plugin-relay';
import globals from 'globals';
import { functionBudget } from './eslint.function-budget.js';

export default tseslint.config(
  {
    ignores: ['**/__generated__/**', 'api/src/generated/**', 'api/test/client/**', 'web/src/rest/generated/**', 'web/dist/**', 'node_modules/**'],
  },
  {
    files: [
      'api/src/**/*.ts',
      'api/test/**/*.ts',
      'scripts/**/*.{ts,mjs,cjs,js}',
      'packages/*/{src,bin}/**/*.mjs',
      'web/src/**/*.{ts,tsx}',
      'web/e2e/**/*.ts',
      '*.js',
    ],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore names what is there on purpose and unread: a positional argument, a
      // destructured element or a property taken out of a rest ({ $schema: _, ...rest }).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `a && (b = c)` and `cond ? x++ : y++` are used in hot loops (byte sniffing) and one-line guards.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    // Tests, scripts and browser tests read JSON answers as `any`; the application code does not.
    files: ['api/test/**/*.ts', 'scripts/**/*.{ts,mjs,cjs,js}', 'web/e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, relay },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      // React Compiler's rules the app is not written for (it does not use the compiler): refs read
      // while rendering (the latest value of a prop for a callback), state reset by an effect on a
      // new key, an object mutated after an effect read it.
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/immutability': 'off',
      'relay/graphql-syntax': 'error',
      'relay/graphql-naming': 'error',
      'relay/generated-typescript-types': 'error',
      'relay/function-required-argument': 'error',
      'relay/hook-required-argument': 'error',
      // Off: fragment data is handed whole to helpers (shownName(user) reads firstName and lastName,
      // a chart reads its points), which this rule, reading property names in one file, cannot see.
      'relay/unused-fields': 'off',
      // Off: queries are prepared in route loaders and providers, which spread the fragments of the
      // components they render through others (the loader does not import the row it feeds).
      'relay/must-colocate-fragment-spreads': 'off',
      // Off: hand-written enum types mirror the generated ones, '%future added value' included, so a
      // value newer than the build is shown as unknown rather than breaking the type.
      'relay/no-future-added-value': 'off',
    },
  },
  {
    // Owned by the access-analysis engine's work in progress; the escape is harmless.
    files: ['api/src/services/access/extracts.ts'],
    rules: { 'no-useless-escape': 'off' },
  },
  ...functionBudget(),
);
