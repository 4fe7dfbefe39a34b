import { describe, expect, it } from 'vitest';
import {
  devolucaoIdFor,
  fromValor,
  idEnvioFor,
  partyOf,
  refundIdOfDevolucao,
  refusalOf,
  toValor,
  transactionIdOfEnvio,
  txidFor,
} from '../../src/provider/efi/efi.mapping.ts';

describe('Efí mapping', () => {
  it('writes and reads amounts as reais with two decimals, refusing anything else', () => {
    expect(toValor(1)).toBe('0.01');
    expect(toValor(123_456)).toBe('1234.56');
    expect(toValor(100)).toBe('1.00');
    expect(() => toValor(-1)).toThrow();
    expect(() => toValor(1.5)).toThrow();
    expect(fromValor('1234.56')).toBe(123_456);
    expect(fromValor('0.01')).toBe(1);
    for (const bad of ['1234.5', '1,00', '12', '-1.00', 12, undefined, '1.000']) expect(fromValor(bad)).toBeUndefined();
  });

  it('derives txids of 26-35 alphanumerics: the transaction id without externalRef, the same one for every retry of an externalRef', () => {
    const first = txidFor({ transactionId: 'tx_3f9c0a5e1b2d4c6e8f0a1b2c', accountId: 'acc_1', externalRef: 'pedido-1' });
    const retry = txidFor({ transactionId: 'tx_000000000000000000000000', accountId: 'acc_1', externalRef: 'pedido-1' });
    expect(retry).toBe(first);
    expect(txidFor({ transactionId: 'tx_1', accountId: 'acc_2', externalRef: 'pedido-1' })).not.toBe(first);
    expect(txidFor({ transactionId: 'tx_1', accountId: 'acc_1', externalRef: 'pedido-1' }, 1)).not.toBe(first);
    const plain = txidFor({ transactionId: 'tx_3f9c0a5e1b2d4c6e8f0a1b2c', accountId: 'acc_1' });
    for (const txid of [first, plain]) expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
  });

  it('maps withdrawal and refund ids to idEnvio and devolução ids and back, and only its own', () => {
    expect(idEnvioFor('tx_3f9c0a5e1b2d4c6e8f0a1b2c')).toBe('tx3f9c0a5e1b2d4c6e8f0a1b2c');
    expect(transactionIdOfEnvio('tx3f9c0a5e1b2d4c6e8f0a1b2c')).toBe('tx_3f9c0a5e1b2d4c6e8f0a1b2c');
    expect(transactionIdOfEnvio('po7Hq2')).toBeUndefined();
    expect(devolucaoIdFor('rf_3f9c0a5e1b2d4c6e8f0a1b2c')).toBe('rf3f9c0a5e1b2d4c6e8f0a1b2c');
    expect(refundIdOfDevolucao('rf3f9c0a5e1b2d4c6e8f0a1b2c')).toBe('rf_3f9c0a5e1b2d4c6e8f0a1b2c');
    expect(refundIdOfDevolucao('MED123')).toBeUndefined();
  });

  it('reads a party only when it is complete, and maps refusal reasons to refusedCode', () => {
    expect(partyOf({ nome: 'Maria', cpf: '529.982.247-25', codigoBanco: '60701190', agencia: '1', conta: '2-3' })).toEqual({
      name: 'Maria',
      document: '52998224725',
      documentType: 'cpf',
      bankAccount: { ispb: '60701190', branch: '1', account: '2-3' },
    });
    expect(partyOf({ nome: 'Loja', cnpj: '11222333000181', codigoBanco: '60701190' })?.documentType).toBe('cnpj');
    expect(partyOf({ nome: 'Sem banco', cpf: '52998224725' })).toBeUndefined();
    expect(partyOf(undefined)).toBeUndefined();
    expect(refusalOf('AC03').code).toBe('BENEFICIARY_ACCOUNT_INVALID');
    expect(refusalOf('AC07').code).toBe('BENEFICIARY_ACCOUNT_CLOSED');
    expect(refusalOf('BE01').code).toBe('KEY_OWNER_MISMATCH');
    expect(refusalOf('chave_nao_pertence_ao_documento').code).toBe('KEY_OWNER_MISMATCH');
    expect(refusalOf('ZZ99')).toEqual({ code: 'PROVIDER_REJECTED', reason: 'Recusado pelo provedor (ZZ99).' });
    expect(refusalOf('ZZ99', 'Erro no PSP do recebedor')).toEqual({ code: 'PROVIDER_REJECTED', reason: 'Erro no PSP do recebedor (ZZ99)' });
    // A provider that already reports PixGate's codes (the fake's sandbox) keeps them, with its text.
    expect(refusalOf('INVALID_PIX_KEY', 'Chave PIX inexistente no DICT.')).toEqual({ code: 'INVALID_PIX_KEY', reason: 'Chave PIX inexistente no DICT.' });
    expect(refusalOf(undefined).code).toBe('PROVIDER_REJECTED');
  });
});
