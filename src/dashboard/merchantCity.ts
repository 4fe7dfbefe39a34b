import { getMunicipalities } from '@brazilian-utils/brazilian-utils/get-municipalities';
import { getStates } from '@brazilian-utils/brazilian-utils/get-states';
import { removeAccents } from '@brazilian-utils/brazilian-utils/remove-accents';
import { InvalidMerchantCity } from './dashboard.errors.ts';

/**
 * The merchant's city (issue 38, defect 12): a municipality of the IBGE's list (the offline "localidades"
 * data of @brazilian-utils/brazilian-utils, the same list the Central Bank's PSPs use), in the UF chosen.
 * The name is matched without accents, case, repeated spaces, and with hyphens and apostrophes as typed or
 * left out ("sao jose dos campos", "Embu Guacu", "Santa Barbara dOeste"); the IBGE's spelling is what is
 * stored and shown. The BR Code carries it in ASCII capitals, cut to the 15 characters of field 60.
 */
export interface MerchantCity {
  /** The municipality as the IBGE writes it, e.g. `São José dos Campos`. */
  name: string;
  /** Its UF, e.g. `SP`. */
  state: string;
  /** The municipality's 7-digit IBGE code. */
  ibgeCode: string;
}

export const STATE_CODES: readonly string[] = getStates().map((state) => state.code);

/** A name as compared: no accents, lower case, letters and digits only (spaces, hyphens, apostrophes dropped). */
function comparable(name: string): string {
  return removeAccents(name.normalize('NFC')).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Up to three municipalities of the UF whose names start with (else contain) what was typed: "Você quis dizer". */
function suggestions(typed: string, candidates: readonly { name: string }[]): string[] {
  if (typed.length < 3) return [];
  const starting = candidates.filter((candidate) => comparable(candidate.name).startsWith(typed));
  const found = starting.length > 0 ? starting : candidates.filter((candidate) => comparable(candidate.name).includes(typed));
  return found.slice(0, 3).map((candidate) => candidate.name);
}

/**
 * The municipality named `city` in `state`, or InvalidMerchantCity about the field to correct: `state` when
 * it is not one of the 27 UFs, `city` when the UF has no municipality of that name (with the closest names).
 */
export function resolveMerchantCity(city: string, state: string): MerchantCity {
  const uf = state.trim().toUpperCase();
  if (!STATE_CODES.includes(uf)) throw new InvalidMerchantCity('state', { typed: state.trim() });
  const typed = comparable(city);
  const municipalities = getMunicipalities(uf as Parameters<typeof getMunicipalities>[0]);
  const found = typed === '' ? undefined : municipalities.find((municipality) => comparable(municipality.name) === typed);
  if (!found) throw new InvalidMerchantCity('city', { typed: city.trim(), state: uf, suggestions: suggestions(typed, municipalities) });
  return { name: found.name, state: uf, ibgeCode: found.code };
}
