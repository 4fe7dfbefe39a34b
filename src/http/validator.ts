import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { bundledDocumentName, type OpenApiDocument } from './spec.ts';

type PathToRegexp = (path: string, options?: object) => unknown;
interface PathToRegexpModule {
  pathToRegexp?: PathToRegexp;
}

/** The piece of Ajv that express-openapi-validator's `useAjvCache` touches. */
interface AjvLike {
  getSchema(key: string): unknown;
}
type UseAjvCache = (ajv: AjvLike, schema: Record<string, unknown>, ajvCacheKey: string) => unknown;
interface ValidatorUtilModule {
  useAjvCache?: UseAjvCache;
}
interface SchemaValidatorOptions {
  version: string;
  validateApiSpec: boolean;
}
type SchemaValidatorClass = new (options: SchemaValidatorOptions) => object;
interface SchemaValidatorModule {
  OpenAPISchemaValidator?: SchemaValidatorClass;
}

const MEMOIZED_PATTERNS_MAX = 1000;
let patched = false;

/**
 * The three changes below to the modules express-openapi-validator loads, made once per process, each through
 * the module's exports (the validator reads them there at call time).
 */
function patchValidatorOnce(): void {
  if (patched) return;
  patched = true;
  const requireFromValidator = createRequire(import.meta.resolve('express-openapi-validator'));
  memoizePathToRegexp(requireFromValidator('path-to-regexp') as PathToRegexpModule);
  addSchemasWithoutTheDocument(requireFromValidator('./middlewares/util.js') as ValidatorUtilModule);
  shareMetaSchemaValidator(requireFromValidator('./framework/openapi.schema.validator.js') as SchemaValidatorModule);
}

/** True when the schema, as JSON, names no `$ref` (a schema with cycles cannot be told: false). */
function refFree(schema: object): boolean {
  try {
    return !JSON.stringify(schema).includes('"$ref"');
  } catch {
    return false;
  }
}

/**
 * express-openapi-validator 5 hands Ajv every request and response schema wrapped with the whole document's
 * `paths` and `components` (so that a `$ref` inside can resolve), and Ajv walks the whole wrapper to collect
 * `$id`s each time one is added (`getSchemaRefs`, with `allKeys`). Our documents are loaded dereferenced
 * (`$refParser: { mode: 'dereference' }`), so that walk covered the whole document once per route and status:
 * 35 % of a back-office test file's CPU (issue 33). A schema that names no `$ref` needs neither, so it is
 * added without them; one that still names a `$ref` is added exactly as the validator built it. Wraps the
 * function on the module the validator loads (it calls it through the module's exports); a version that
 * stops wrapping the document makes this a no-op.
 */
function addSchemasWithoutTheDocument(module: ValidatorUtilModule): void {
  const original = module.useAjvCache;
  if (typeof original !== 'function') return;
  module.useAjvCache = (ajv, schema, ajvCacheKey) => {
    if (ajv.getSchema(ajvCacheKey)) return original(ajv, schema, ajvCacheKey);
    const { paths, components, ...own } = schema;
    if ((paths === undefined && components === undefined) || !refFree(own)) return original(ajv, schema, ajvCacheKey);
    return original(ajv, own, ajvCacheKey);
  };
}

/**
 * express-openapi-validator 5 compiles every route's path pattern with path-to-regexp on every request
 * (`lookupRoute` in its openapi.metadata.js: 3.7 % of a read's CPU in the benchmark's profile). A pattern's
 * compiled form depends only on the pattern and its options, so the function of the module the
 * validator loads is memoized (at most MEMOIZED_PATTERNS_MAX patterns: the documents' routes). The result
 * is only read (`regexp.exec`, `keys`); a version that stops calling it per request makes this a no-op.
 */
function memoizePathToRegexp(module: PathToRegexpModule): void {
  const original = module.pathToRegexp;
  if (typeof original !== 'function') return;
  const compiled = new Map<string, unknown>();
  module.pathToRegexp = (path, options) => {
    if (typeof path !== 'string') return original(path, options);
    // Every option in the key: other callers of the module (Express's router) may pass other options.
    const key = `${JSON.stringify(options ?? null)}\u0000${path}`;
    const known = compiled.get(key);
    if (known !== undefined) return known;
    const result = original(path, options);
    if (compiled.size < MEMOIZED_PATTERNS_MAX) compiled.set(key, result);
    return result;
  };
}

/**
 * Every validator the middleware builds checks its document against the OpenAPI schema, and to do so
 * compiles the OpenAPI 3.1 meta-schema with Ajv in its constructor: about 0.2 s of CPU, three times per
 * gateway (one per document), paid again by every test file that starts one (issue 33). The compiled check
 * depends only on the OpenAPI version and whether documents are checked, and holds no state between calls
 * (Ajv's `errors` are set by each synchronous call and read right after it), so one is built per process
 * and shared. The documents are still checked at every start, as before. Wraps the class on the module the
 * validator loads (it constructs it through the module's exports).
 */
function shareMetaSchemaValidator(module: SchemaValidatorModule): void {
  const found = module.OpenAPISchemaValidator;
  if (typeof found !== 'function') return;
  const Original: SchemaValidatorClass = found;
  const built = new Map<string, object>();
  // A class whose constructor returns the instance already built for the same options (`new` yields it).
  module.OpenAPISchemaValidator = class {
    constructor(options: SchemaValidatorOptions) {
      const key = `${options.version}\u0000${String(options.validateApiSpec)}`;
      let validator = built.get(key);
      if (!validator) {
        validator = new Original(options);
        built.set(key, validator);
      }
      return validator;
    }
  };
}

/**
 * Request validation always; response validation where `validateResponses` is on (development and tests
 * by default: it catches a handler that drifts from the contract; its cost is measured by the benchmark).
 * Security is checked by our own middleware (exact 401/403 messages), not by the validator.
 */
export function openApiValidator(apiSpec: OpenApiDocument, validateResponses: boolean): RequestHandler[] {
  patchValidatorOnce();
  const bundled = bundledDocumentName(apiSpec);
  const key = bundled === undefined ? undefined : `${bundled}\u0000${String(validateResponses)}`;
  const known = key === undefined ? undefined : sharedValidators.get(key);
  if (known) return known;
  const validator = build(apiSpec, validateResponses);
  if (key !== undefined) sharedValidators.set(key, validator);
  return validator;
}

/**
 * The validators built of the bundled documents, one per document and response mode per process. Each
 * gateway a process starts used to build its own: loading the document again, adding every component schema
 * to four Ajv instances and compiling each route's schemas on its first request, about 12 % of a test run's
 * CPU with several gateways per worker (issue 33). In production a process starts one gateway, so this
 * changes nothing there. Sharing is safe: the validator keeps no state of one app's (its `app.param` hook,
 * installed on the first app only, does not reach routes mounted on routers, which all of ours are; the
 * routing settings it reads from `req.app` are Express's defaults in every app).
 */
const sharedValidators = new Map<string, RequestHandler[]>();

function build(apiSpec: OpenApiDocument, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator's types want its own OpenAPIV3.Document; our bundled JSON is one.
    apiSpec: apiSpec as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'],
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    $refParser: { mode: 'dereference' },
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];
}
