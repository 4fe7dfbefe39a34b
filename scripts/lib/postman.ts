/**
 * The Postman collection of the merchant API, converted from the bundled OpenAPI document by Postman's own
 * converter (`openapi-to-postmanv2`, its v2 interface, which fills requests from the documented examples),
 * then made stable and ready to use:
 *
 * - no random ids (`_postman_id`, item and response `id`s are fresh UUIDs at each run; Postman assigns its
 *   own on import), so `npm run check:generated` can compare runs;
 * - the bearer key is the collection variable `{{apiKey}}` (the converter's own name is `bearerToken`),
 *   next to `{{baseUrl}}`; every request inherits the collection's auth;
 * - folders without requests (the `Webhooks` tag: events are sent to the merchant, not called) are left out;
 * - query parameters (all optional: filters, pages) come unticked, so a request sends none until one is
 *   ticked; the cursor's value is empty (the converter makes one up from its pattern, which the server
 *   refuses): paste a `nextCursor` there.
 */
import Converter, { type Options } from 'openapi-to-postmanv2';
import type { Json, JsonObject } from './json.ts';
import { isObject } from './json.ts';

const CONVERTER_OPTIONS: Options = {
  folderStrategy: 'Tags',
  parametersResolution: 'Example',
  requestNameSource: 'Fallback',
  alwaysInheritAuthentication: true,
  includeAuthInfoInExample: false,
  includeWebhooks: false,
  indentCharacter: 'Space',
};

/** Keys whose values are fresh random UUIDs at every conversion. */
const RANDOM_KEYS = new Set(['id', '_postman_id']);
const CONVERTER_TOKEN = '{{bearerToken}}';
export const API_KEY_VARIABLE = 'apiKey';

function convert(document: JsonObject): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    // The converter changes the document it is given: it gets a copy.
    Converter.convertV2({ type: 'json', data: structuredClone(document) }, CONVERTER_OPTIONS, (error, result) => {
      if (error) return reject(error);
      const collection = result?.output?.[0]?.data as unknown;
      if (!result?.result || !isObject(collection)) return reject(new Error(`openapi-to-postmanv2 failed: ${result?.reason ?? 'no output'}`));
      resolve(collection);
    });
  });
}

/** A copy without the random ids, folders without requests, and `{{bearerToken}}` renamed `{{apiKey}}`. */
function stabilise(node: Json): Json {
  if (typeof node === 'string') return node.split(CONVERTER_TOKEN).join(`{{${API_KEY_VARIABLE}}}`);
  if (Array.isArray(node)) {
    return node.map(stabilise).filter((item) => !(isObject(item) && Array.isArray(item['item']) && item['item'].length === 0 && !('request' in item)));
  }
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (!RANDOM_KEYS.has(key)) copy[key] = stabilise(value);
  return copy;
}

/** Unticks every query parameter of every request (and of the responses' original requests), and empties the cursor's made-up value. */
function untickQueries(node: Json): void {
  if (Array.isArray(node)) {
    node.forEach(untickQueries);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'url' && isObject(value) && Array.isArray(value['query'])) {
      for (const query of value['query']) {
        if (!isObject(query)) continue;
        query['disabled'] = true;
        if (query['key'] === 'cursor') query['value'] = '';
      }
    } else {
      untickQueries(value);
    }
  }
}

export async function postmanCollection(merchantDocument: Json): Promise<JsonObject> {
  if (!isObject(merchantDocument)) throw new Error('postmanCollection: the merchant document is not an object');
  const collection = stabilise(await convert(merchantDocument)) as JsonObject;
  untickQueries(collection['item'] ?? []);
  const baseUrl = (Array.isArray(collection['variable']) ? collection['variable'] : []).filter((v) => isObject(v) && v['key'] === 'baseUrl');
  if (baseUrl.length !== 1) throw new Error('openapi-to-postmanv2 no longer writes a baseUrl variable: review scripts/lib/postman.ts');
  collection['variable'] = [...baseUrl, { key: API_KEY_VARIABLE, value: '', type: 'string', description: 'Your API key (pixg_…), sent as Authorization: Bearer.' }];
  collection['auth'] = { type: 'bearer', bearer: [{ key: 'token', value: `{{${API_KEY_VARIABLE}}}`, type: 'string' }] };
  return collection;
}
