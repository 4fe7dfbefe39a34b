// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layering rules of docs/architecture.md, enforced: only src/http/ turns errors into HTTP answers,
 * SQL lives in repositories (*.repository.ts) and migrations, and route handlers call services (no
 * repository, no query builder, no database handle). Flat config replaces a rule per matching block, so
 * each block below repeats what it keeps from the ones above.
 */
const httpErrorsOnlyInHttp = {
  group: ['**/http/errors.ts'],
  message: 'Only src/http/ picks HTTP statuses: throw a domain error (see src/platform/domainError.ts) and map it in src/http/errorMapping.ts.',
};
const routesCallServices = {
  group: ['kysely', '**/db/connect.ts', '**/*.repository.ts'],
  message: 'Route handlers call services; SQL lives in repositories (docs/architecture.md).',
};
const sqlOnlyInRepositories = [
  {
    selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto)$/]",
    message: 'SQL lives in the repository that owns the table (*.repository.ts).',
  },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL lives in the repository that owns the table (*.repository.ts).' },
];
/** A status of `transactions` or `refunds` changes only through its state machine's transition, which books its money. */
const statusOnlyInTransitions = {
  selector: "CallExpression[callee.name=/^(updateTransaction|updateRefund)$/] > ObjectExpression > Property[key.name='status']",
  message: "A status changes only through its state machine's transition (withdrawal.machine.ts, refund.machine.ts, charge.machine.ts), which books the money the table names.",
};
const routesDoNotTouchTheDatabase = {
  selector: "MemberExpression[property.name='db']",
  message: 'Route handlers do not touch the database handle: call a service.',
};

/** The wiring sits at the top (issue 34): only the entry points import it. */
const wiringAtTheTop = {
  group: ['**/runtime.ts'],
  message: 'src/runtime.ts is the wiring at the top of the layers: only the entry points (src/main.ts, src/worker.ts) import it.',
};
/** Above the provider port nothing knows which provider runs (issue 34). */
const noProviderAboveThePort = {
  group: ['**/provider/efi/**', '**/provider/simulated*'],
  message: 'Above the provider port (src/provider/port.ts) nothing knows which provider runs: only src/provider/ and the wiring (src/runtime.ts) import an adapter.',
};
/** Repositories sit below the services (issue 34). */
const repositoriesBelowServices = {
  group: ['**/*.service.ts', '**/*.routes.ts', '**/*.dispatch.ts', '**/*.settlement.ts', '**/*.sandbox.ts', '**/*.review.ts', '**/jobs/**', '**/http/**', '**/backoffice/**', '**/dashboard/*.service.ts'],
  message: 'A repository sits below the services: it imports kysely, row types, the state modules and other repositories, never a service, a route, a job or HTTP.',
};
/** The database layer sits below every feature (issue 34): row and status types live in src/db/tables/. */
const databaseBelowFeatures = (depth) => ({
  regex: `^${'\\.\\./'.repeat(depth)}(?!db/|primitives/|platform/metrics\\.ts$|events/event\\.types\\.ts$)`,
  message: 'src/db/ sits below the features: it imports only src/db/, src/primitives/, the metrics types and the contract\'s event types (statuses live in src/db/tables/statuses.ts).',
});
/** A migration records what it did: it imports no live code (issue 34). */
const migrationsStandAlone = {
  regex: '^\\.\\./',
  message: 'A migration records what it did: it imports kysely and earlier migrations only, never live code (name the values it uses).',
};

/** The integration kit (src/sdk/, exported as pixgate/client and pixgate/webhooks) ships alone: generated types only. */
const sdkStandsAlone = {
  regex: '^\\.\\./(?!\\.\\./generated/)',
  message: 'src/sdk/ is the published integration kit: it imports only the generated types (generated/), openapi-fetch and standardwebhooks, nothing of the gateway.',
};
const gatewayDoesNotUseSdk = {
  group: ['**/sdk/**', 'pixgate/*'],
  message: 'The gateway does not depend on its own integration kit (src/sdk/).',
};

export default tseslint.config(
  // kit/dist/: the integration kit compiled from src/sdk/ (npm run build:kit).
  { ignores: ['node_modules/', 'generated/', 'dist/', 'kit/dist/', '.data/', '.venv/', 'reports/', 'scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/http/**', 'src/sdk/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [httpErrorsOnlyInHttp, gatewayDoesNotUseSdk, wiringAtTheTop, noProviderAboveThePort] }] },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [gatewayDoesNotUseSdk, wiringAtTheTop, noProviderAboveThePort] }] },
  },
  {
    // The provider's own modules may name its adapters; the entry points and the wiring may name anything.
    files: ['src/provider/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [httpErrorsOnlyInHttp, gatewayDoesNotUseSdk, wiringAtTheTop] }] },
  },
  {
    files: ['src/main.ts', 'src/worker.ts', 'src/runtime.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [httpErrorsOnlyInHttp, gatewayDoesNotUseSdk] }] },
  },
  {
    files: ['src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [httpErrorsOnlyInHttp, gatewayDoesNotUseSdk, wiringAtTheTop, noProviderAboveThePort, repositoriesBelowServices] }],
    },
  },
  {
    files: ['src/db/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [databaseBelowFeatures(1)] }] },
  },
  {
    files: ['src/db/tables/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [databaseBelowFeatures(2)] }] },
  },
  {
    files: ['src/db/migrations/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [migrationsStandAlone] }] },
  },
  {
    files: ['src/sdk/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sdkStandsAlone] }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/db/**', 'src/**/*.machine.ts'],
    rules: { 'no-restricted-syntax': ['error', ...sqlOnlyInRepositories, statusOnlyInTransitions] },
  },
  {
    files: ['src/**/*.machine.ts'],
    rules: { 'no-restricted-syntax': ['error', ...sqlOnlyInRepositories] },
  },
  {
    files: ['src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [httpErrorsOnlyInHttp, routesCallServices, gatewayDoesNotUseSdk, wiringAtTheTop, noProviderAboveThePort] }],
      'no-restricted-syntax': ['error', ...sqlOnlyInRepositories, statusOnlyInTransitions, routesDoNotTouchTheDatabase],
    },
  },
  {
    // Plain JavaScript for Node (examples/merchant.mjs, the kit used without TypeScript): Node's globals.
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // The web applications run in the browser: its globals, and the rules of hooks.
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
