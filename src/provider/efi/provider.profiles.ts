/**
 * The provider profiles: what differs between Efí and any other provider of the Central Bank's API Pix 2.9.0,
 * in this one place (issue 35). The adapter (efi.provider.ts) and its transport (efi.client.ts) ask the
 * profile; nothing else names a provider. docs/providers.md says what each profile supports.
 *
 * - `efi` (PSP=efi): API Pix with Efí's extensions: its send API (`/v3/gn/pix`, `/v2/gn/pix/enviados`), its
 *   balance (`/v2/gn/saldo`) and its MED infractions (`/v2/gn/infracoes`); a reused txid answered 409
 *   `txid_duplicado`; the token asked for with a JSON body; the base URL is the host (the paths carry `/v2`).
 * - `apipix` (PSP=apipix): the standard alone. Charges (cob), received Pix, devoluções (MED ones included: the
 *   standard's `natureza`) and the webhook. The base URL ends with the API's version (the standard's server
 *   is `https://pix.example.com/api/` with the version inside the provider's base URL); the token asked for
 *   as RFC 6749 says (form-urlencoded, client credentials in Basic); a `PUT /cob/{txid}` on a txid in use
 *   revises an ATIVA cob and answers 400 `CobOperacaoInvalida` otherwise, so a txid is read before it is
 *   used; no send API, no balance, no infraction listing (the standard has none): withdrawals are refused
 *   before any money moves, and the reconciliation compares what the standard lets it compare.
 *
 * Both speak Pix Automático (`rec`, `solicrec`, `locrec`, `cobr` and their webhooks, the standard's own on
 * each) once PSP_RECEIVER_ACCOUNT names the receiver's account (`cobr.recebedor`): the adapter turns
 * `recurrences` off without it.
 */
import type { ProviderCapabilities } from '../port.ts';

export type ProfileName = 'efi' | 'apipix';

export interface ProviderProfile {
  readonly name: ProfileName;
  /** What this provider offers beyond charges, received Pix and devoluções. */
  readonly capabilities: ProviderCapabilities;
  /**
   * How a `PUT /cob/{txid}` on a txid in use is answered: `conflict` (Efí: 409, nothing changed), or `revises`
   * (the standard: an ATIVA cob takes the new body), in which case the adapter reads the txid before it
   * creates a cob there, so a retry can never change a live charge.
   */
  readonly reusedTxid: 'conflict' | 'revises';
  /** How the token request is sent by default (PSP_TOKEN_FORMAT overrides it). */
  readonly tokenFormat: 'json' | 'form';
  /**
   * The upstream contract's paths carry API Pix's version (`/v2/cob/{txid}`); where they go: below the host
   * (Efí), or below a base URL that already ends with the version (the standard), the `/v2` dropped.
   */
  apiPixUrl(baseUrl: string): string;
  /** Where Efí's own paths (`/v2/gn/...`, `/v3/gn/...`) and the fake's control API go. */
  hostUrl(baseUrl: string): string;
}

const EFI: ProviderProfile = {
  name: 'efi',
  capabilities: { payouts: true, infractions: true, balance: true, recurrences: true },
  reusedTxid: 'conflict',
  tokenFormat: 'json',
  apiPixUrl: (baseUrl) => `${baseUrl}/v2`,
  hostUrl: (baseUrl) => baseUrl,
};

const API_PIX: ProviderProfile = {
  name: 'apipix',
  capabilities: { payouts: false, infractions: false, balance: false, recurrences: true },
  reusedTxid: 'revises',
  tokenFormat: 'form',
  apiPixUrl: (baseUrl) => baseUrl,
  hostUrl: (baseUrl) => new URL(baseUrl).origin,
};

export function providerProfile(name: ProfileName): ProviderProfile {
  return name === 'apipix' ? API_PIX : EFI;
}
