/**
 * The fake DICT: who owns a Pix key, for sends. A CPF or CNPJ key belongs to that document; any other key to
 * the owner a test set (`setKeyOwner`), else to the document the send names in `favorecido` (or to a person
 * invented from the key, the same one every time). A send naming a document that is not the owner's is
 * refused with `chave_nao_pertence_ao_documento` (Efí checks the key against `favorecido.cpf`/`cnpj`).
 */
import type { Recebedor } from './types.ts';
import { cpfFromSeed, digitsFromSeed } from './values.ts';

export interface KeyOwner {
  nome: string;
  cpf?: string;
  cnpj?: string;
}

/** ISPB of the receivers' bank the fake makes up (a made-up participant, not a real one). */
const RECEIVER_ISPB = '99999004';
const CPF_KEY = /^\d{11}$/;
const CNPJ_KEY = /^[0-9A-Z]{12}\d{2}$/;

export class FakeDict {
  private readonly owners = new Map<string, KeyOwner>();

  set(chave: string, owner: KeyOwner): void {
    if (typeof owner.nome !== 'string' || owner.nome === '') throw new TypeError('the owner needs a nome');
    if (owner.cpf !== undefined && owner.cnpj !== undefined) throw new TypeError('an owner has a cpf or a cnpj, not both');
    this.owners.set(chave, { ...owner });
  }

  /** The key's owner, or undefined when `favorecido` names another document. */
  resolve(chave: string, favorecido: { cpf?: string; cnpj?: string }): KeyOwner | undefined {
    const owner = this.ownerOf(chave, favorecido);
    if (favorecido.cpf !== undefined && favorecido.cpf !== owner.cpf) return undefined;
    if (favorecido.cnpj !== undefined && favorecido.cnpj !== owner.cnpj) return undefined;
    return owner;
  }

  private ownerOf(chave: string, favorecido: { cpf?: string; cnpj?: string }): KeyOwner {
    const registered = this.owners.get(chave);
    const nome = registered?.nome ?? inventedName(chave);
    if (CPF_KEY.test(chave)) return { nome, cpf: chave };
    if (CNPJ_KEY.test(chave)) return { nome, cnpj: chave };
    if (registered) return registered;
    if (favorecido.cpf !== undefined) return { nome, cpf: favorecido.cpf };
    if (favorecido.cnpj !== undefined) return { nome, cnpj: favorecido.cnpj };
    return { nome, cpf: cpfFromSeed(chave) };
  }
}

/** The receiver as the send's read reports it once paid: the owner with made-up bank details. */
export function receiverOf(chave: string, owner: KeyOwner): Recebedor {
  return {
    nome: owner.nome,
    ...(owner.cnpj !== undefined ? { cnpj: owner.cnpj } : { cpf: owner.cpf ?? cpfFromSeed(chave) }),
    codigoBanco: RECEIVER_ISPB,
    agencia: '0001',
    conta: `${digitsFromSeed(`conta:${chave}`, 7)}-${digitsFromSeed(`dv:${chave}`, 1)}`,
  };
}

function inventedName(chave: string): string {
  return `Recebedor Ficticio ${digitsFromSeed(`nome:${chave}`, 4)}`;
}
