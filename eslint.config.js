// @ts-check
/**
 * Lint configuration: typescript-eslint's strict, type-aware rules (`strictTypeChecked`, types
 * from each file's tsconfig through the project service) over everything we write and everything
 * we generate (docs/architecture.md §6). `npm run lint` runs it; `npm test` runs it in test/project/hygiene.test.ts.
 * A rule switched off or tuned below says why in one line; everything else is fixed where reported.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      // What .gitignore keeps out of the repository is not linted either.
      'node_modules/',
      'dist/',
      'data/',
      'tmp/',
      '.scratch/',
      '.vitest-cache/',
      // Prisma's own output (`prisma generate`): not ours to fix, replaced on every generate.
      'generated/prisma/',
      // The Pothos peer's datamodel, written by its Prisma generator (bench/peers/pothos/generate-types.sh).
      'bench/peers/pothos/prisma-types.ts',
      // Declarations wrong on purpose (error fixtures) and golden inputs and outputs: each is
      // checked by its own test against an exact expectation.
      'test/errors/',
      'test/golden/',
      'test/fixtures/',
      // Imports the output of `generate` for its own application, which exists only after `init`:
      // test/cli/new-application.test.ts lints it there, type-aware, together with that output.
      'templates/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'knip.config.ts', 'vitest.config.ts', 'generator/launch.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter kept for its position or its type: the runtime's
      // decorators take the options the generator reads statically and ignore them at run time.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // Numbers read as themselves in messages, SQL placeholders and paths (`$${index}`, `${ms} ms`).
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => resolve()` is a callback, and `return refuse(…)` in a function returning void an early
      // exit: neither is a value anyone reads.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      // Passing on what a callee rejected or threw (typed `unknown`) keeps its identity.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Reports ts-morph's subclasses of its generic `Node<T>` and Express's `Request` (an
      // `IncomingMessage`) as "not created by the constructor": wrong for library class hierarchies.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // A decorated empty class is a declaration in NestJS's vocabulary: `@Module({ … }) class AppModule {}`.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
    },
  },
  {
    // The PostGraphile peer runs from its own folder with its own dependencies (bench/postgraphile.ts),
    // which the project's type checker does not see: linted with the untyped rules only.
    files: ['bench/peers/postgraphile/**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'soak/**/*.ts'],
    rules: {
      // Tests and tools index into what they just made (`rows[0]!`): a wrong guess fails the run with a stack.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // vitest's asymmetric matchers (`expect.any(String)`, `expect.objectContaining(…)`) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // Tests check at run time what types only claim (`user.org === null`, `error.extensions?.code`),
      // and after-hooks guard what a failed before-hook left unset (`server?.stop()`).
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
);
