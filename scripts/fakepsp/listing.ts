/**
 * The standard's listings of charges with a due date, batches and locations (`GET /cobv`, `GET /lotecobv`,
 * `GET /loc`): `inicio` and `fim` required (RFC 3339, inclusive, by the item's `criacao`), `fim` not before
 * `inicio`, `paginacao.paginaAtual` from 0 (default 0), `paginacao.itensPorPagina` 1..1000 (default 100).
 * `quantidadeDePaginas` counts at least one page in the standard profile (`Paginacao`, minimum 1), as the
 * listing of received Pix does (state.ts); the efi profile counts the pages there are.
 */
import type { FakePspProfile, Paginacao } from './types.ts';
import { parseHorario } from './values.ts';

export interface Listing {
  inicio: string;
  fim: string;
  inicioMs: number;
  fimMs: number;
  page: number;
  perPage: number;
}

function pageNumber(text: string | null, fallback: number, min: number, max: number): number | undefined {
  if (text === null) return fallback;
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** The period and page of a listing; `invalid` throws the resource's `...ConsultaInvalida`. */
export function listingQuery(query: URLSearchParams, invalid: (detail: string) => never): Listing {
  const inicio = query.get('inicio');
  const fim = query.get('fim');
  const inicioMs = parseHorario(inicio);
  const fimMs = parseHorario(fim);
  if (inicio === null || inicioMs === undefined) return invalid('inicio is required, an RFC 3339 date-time');
  if (fim === null || fimMs === undefined) return invalid('fim is required, an RFC 3339 date-time');
  if (fimMs < inicioMs) return invalid('fim is before inicio');
  const page = pageNumber(query.get('paginacao.paginaAtual'), 0, 0, Number.MAX_SAFE_INTEGER) ?? invalid('paginacao.paginaAtual must be an integer >= 0');
  const perPage = pageNumber(query.get('paginacao.itensPorPagina'), 100, 1, 1000) ?? invalid('paginacao.itensPorPagina must be 1..1000');
  return { inicio, fim, inicioMs, fimMs, page, perPage };
}

/** One page of `items` (already filtered and in order) and its `paginacao`. */
export function page<T>(items: T[], listing: Listing, profile: FakePspProfile): { items: T[]; paginacao: Paginacao } {
  const total = items.length;
  const pages = Math.ceil(total / listing.perPage);
  return {
    items: items.slice(listing.page * listing.perPage, (listing.page + 1) * listing.perPage),
    paginacao: {
      paginaAtual: listing.page,
      itensPorPagina: listing.perPage,
      quantidadeDePaginas: profile === 'standard' ? Math.max(1, pages) : pages,
      quantidadeTotalDeItens: total,
    },
  };
}
