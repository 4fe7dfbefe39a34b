/** keys:create, keys:list, keys:revoke. */
import { arg, defineCommand, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderApiKey, renderApiKeyCreated, renderApiKeyList } from '../render.ts';
import type { ApiKey, ApiKeyCreated, ApiKeyList, CreateApiKeyRequest } from '../types.ts';

const keysPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}/api-keys`;

export const createKey = defineCommand<ApiKeyCreated>({
  name: 'keys:create',
  summary: 'Create an API key for an account with approved KYC; prints the secret once.',
  args: ['accountId'],
  options: [{ name: 'label', value: '<text>', help: 'label to tell keys apart, up to 80 characters' }],
  request(input) {
    const label = input.options['label'];
    const body: CreateApiKeyRequest | undefined = label === undefined ? undefined : { label };
    return { method: 'POST', path: keysPath(input), ...(body === undefined ? {} : { body }) };
  },
  render: renderApiKeyCreated,
  notice:
    'WARNING: this is the only time this API key is shown; it cannot be retrieved again. Store it now in a ' +
    'secret manager and hand it to the merchant over a secure channel. If it is lost, create a new key and ' +
    'revoke this one.',
});

export const listKeys = defineCommand<ApiKeyList>({
  name: 'keys:list',
  summary: "List an account's API keys (public prefixes only, never the secrets).",
  args: ['accountId'],
  options: [],
  request: (input) => ({ method: 'GET', path: keysPath(input) }),
  render: renderApiKeyList,
});

export const revokeKey = defineCommand<ApiKey>({
  name: 'keys:revoke',
  summary: 'Revoke an API key (idempotent): refused at once by the server that revokes it, by the others within AUTH_CACHE_TTL_MS (5 s by default).',
  args: ['accountId', 'keyId'],
  options: [],
  request: (input) => ({ method: 'POST', path: `${keysPath(input)}/${segment(arg(input, 1))}/revoke` }),
  render: renderApiKey,
});
