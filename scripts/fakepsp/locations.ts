/**
 * Payload locations (`loc`, the standard's tag PayloadLocation): `POST {base}/loc` (`{tipoCob: 'cob'|'cobv'}`,
 * 201 `PayloadLocation`), `GET {base}/loc/{id}` (`PayloadLocationCompleta`), `GET {base}/loc?inicio&fim`
 * (`PayloadLocationConsultadas`, by `criacao`; filters `txIdPresente`, `tipoCob`, `paginacao.*`) and
 * `DELETE {base}/loc/{id}/txid` (200 `PayloadLocation`: the location keeps no txid, the charge loses its
 * location, its status unchanged). Every charge has one: the one named by its `loc.id`, or one made with it.
 *
 * A location is `fakepsp.local/qr/v2/<32 hex>` (cob) or `fakepsp.local/qr/v2/cobv/<32 hex>` (cobv), without a
 * scheme as the standard's examples write it; the fake serves it at its own origin (`/qr/v2/...`, see
 * payload.ts). Ids are integers (`PayloadLocationId`, int64), counted from 1 across both types.
 */
import { randomHex } from '../../src/primitives/random.ts';
import { type Listing, listingQuery, page } from './listing.ts';
import { problem, refuse, type Violacao } from './replies.ts';
import type { Clock, FakePspProfile, PayloadLocation, PayloadLocationConsultadas, TipoCob } from './types.ts';
import { isObject, iso } from './values.ts';

export const LOCATION_HOST = 'fakepsp.local';
const TIPOS: readonly TipoCob[] = ['cob', 'cobv'];

export interface LocationRecord {
  id: number;
  tipoCob: TipoCob;
  /** Without a scheme: `fakepsp.local/qr/v2/...`. */
  location: string;
  /** The capability part of the URL (the last path segment). */
  token: string;
  createdAtMs: number;
  txid?: string;
}

export class LocationBook {
  private readonly locations = new Map<number, LocationRecord>();
  private nextId = 1;
  private readonly options: { clock: Clock; profile: FakePspProfile };

  constructor(options: { clock: Clock; profile: FakePspProfile }) {
    this.options = options;
  }

  get size(): number {
    return this.locations.size;
  }

  /** A new location, not yet used by a charge. */
  create(tipoCob: TipoCob): LocationRecord {
    const token = randomHex(16);
    const record: LocationRecord = {
      id: this.nextId++,
      tipoCob,
      token,
      location: `${LOCATION_HOST}/qr/v2/${tipoCob === 'cobv' ? 'cobv/' : ''}${token}`,
      createdAtMs: this.options.clock.now(),
    };
    this.locations.set(record.id, record);
    return record;
  }

  get(id: number | undefined): LocationRecord | undefined {
    return id === undefined ? undefined : this.locations.get(id);
  }

  /** The location served at `/qr/v2/[cobv/]<token>`. */
  byToken(tipoCob: TipoCob, token: string): LocationRecord | undefined {
    for (const record of this.locations.values()) if (record.tipoCob === tipoCob && record.token === token) return record;
    return undefined;
  }

  /**
   * Checks the `loc` of a charge request (`{id}`; a `tipoCob`, which the standard's `PayloadLocationCob`
   * names, must then be the charge's): the location must exist, be of the charge's type and be free or the
   * charge's own. Returns its id, or pushes the violation (the standard's wording) and returns undefined.
   */
  check(loc: unknown, tipoCob: TipoCob, txid: string, violacoes: Violacao[], prefix: string): number | undefined {
    const id = isObject(loc) ? loc.id : undefined;
    if (!isObject(loc) || !Number.isSafeInteger(id) || (id as number) < 1 || (loc.tipoCob !== undefined && !TIPOS.includes(loc.tipoCob as TipoCob))) {
      violacoes.push({ razao: `O objeto ${prefix}.loc não respeita o schema.`, propriedade: `${prefix}.loc` });
      return undefined;
    }
    const record = this.locations.get(id as number);
    const valor = String(id);
    if (record === undefined) violacoes.push({ razao: `O location referenciado por ${prefix}.loc.id inexiste.`, propriedade: `${prefix}.loc.id`, valor });
    else if (record.tipoCob !== tipoCob || (loc.tipoCob !== undefined && loc.tipoCob !== tipoCob)) {
      violacoes.push({ razao: `O location referenciado por ${prefix}.loc.id apresenta tipo "${record.tipoCob}" (deveria ser "${tipoCob}").`, propriedade: `${prefix}.loc.id`, valor });
    } else if (record.txid !== undefined && record.txid !== txid) {
      violacoes.push({ razao: `O location referenciado por ${prefix}.loc.id já está sendo utilizado por outra cobrança.`, propriedade: `${prefix}.loc.id`, valor });
    } else return record.id;
    return undefined;
  }

  /** Ties a free location (checked) to a charge. */
  bind(id: number, txid: string): LocationRecord {
    const record = this.locations.get(id);
    if (record === undefined) throw new Error(`no location ${id}`);
    record.txid = txid;
    return record;
  }

  /** Frees a location (the charge moved to another one). */
  release(id: number | undefined): void {
    const record = this.get(id);
    if (record !== undefined) delete record.txid;
  }

  /** `POST {base}/loc`. */
  post(body: unknown): PayloadLocation {
    const tipoCob = isObject(body) ? body.tipoCob : undefined;
    if (!TIPOS.includes(tipoCob as TipoCob)) {
      refuse(problem(400, 'PayloadLocationOperacaoInvalida', 'tipoCob is cob or cobv', [{ razao: 'O campo tipoCob não respeita o schema.', propriedade: 'tipoCob', valor: String(tipoCob) }]));
    }
    return this.view(this.create(tipoCob as TipoCob));
  }

  private record(id: string): LocationRecord {
    const record = /^\d{1,15}$/.test(id) ? this.locations.get(Number(id)) : undefined;
    return record ?? refuse(problem(404, 'PayloadLocationNaoEncontrado', `no location ${id}`));
  }

  /** `GET {base}/loc/{id}`. */
  read(id: string): PayloadLocation {
    return this.view(this.record(id));
  }

  /** `DELETE {base}/loc/{id}/txid`: the location without its charge; `unlink` makes the charge forget it. */
  unbind(id: string, unlink: (txid: string, tipoCob: TipoCob) => void): PayloadLocation {
    const record = this.record(id);
    if (record.txid !== undefined) {
      unlink(record.txid, record.tipoCob);
      delete record.txid;
    }
    return this.view(record);
  }

  /** `GET {base}/loc`. */
  list(query: URLSearchParams): PayloadLocationConsultadas {
    const invalid = (detail: string): never => refuse(problem(400, 'PayloadLocationConsultaInvalida', detail));
    const listing: Listing = listingQuery(query, invalid);
    const txIdPresente = query.get('txIdPresente');
    const tipoCob = query.get('tipoCob');
    if (txIdPresente !== null && txIdPresente !== 'true' && txIdPresente !== 'false') invalid('txIdPresente is true or false');
    if (tipoCob !== null && !TIPOS.includes(tipoCob as TipoCob)) invalid('tipoCob is cob or cobv');
    const matching = [...this.locations.values()].filter(
      (record) =>
        record.createdAtMs >= listing.inicioMs &&
        record.createdAtMs <= listing.fimMs &&
        (txIdPresente === null || (record.txid !== undefined) === (txIdPresente === 'true')) &&
        (tipoCob === null || record.tipoCob === tipoCob),
    );
    const { items, paginacao } = page(matching, listing, this.options.profile);
    const parametros: PayloadLocationConsultadas['parametros'] = { inicio: listing.inicio, fim: listing.fim, paginacao };
    if (txIdPresente !== null) parametros.txIdPresente = txIdPresente === 'true';
    if (tipoCob !== null) parametros.tipoCob = tipoCob as TipoCob;
    return { parametros, loc: items.map((record) => this.view(record)) };
  }

  view(record: LocationRecord): PayloadLocation {
    const view: PayloadLocation = { id: record.id, location: record.location, tipoCob: record.tipoCob, criacao: iso(record.createdAtMs) };
    if (record.txid !== undefined) view.txid = record.txid;
    return view;
  }
}
