/**
 * npm `pix-utils` (`parsePix`) as an outside judge: every payload the gateway builds must be accepted by a
 * third-party parser (pix-facts.md).
 */
import fc from 'fast-check';
import { hasError, isDynamicPix, isStaticPix, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode, buildStaticBrCode, toAsciiUpper } from '../../src/primitives/brcode.ts';

function judge(payload: string) {
  const pix = parsePix(payload);
  if (hasError(pix)) throw new Error(`pix-utils rejected ${payload}: ${pix.message}`);
  return pix;
}

const accentedNames = fc.constantFrom(
  'José da Silva',
  'Padaria São João & Filhos Comércio de Pães Ltda',
  'Ação Ômega Indústria e Comércio de Máquinas S.A.',
  'Émile Zoë Brontë-Çelik',
  'Lojinha do Zé 😀',
);
const names = fc.oneof(accentedNames, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }))
  .filter((s) => toAsciiUpper(s) !== '');
const cities = fc.oneof(
  fc.constantFrom('São Paulo', 'Florianópolis', 'São José dos Campos', 'Itaquaquecetuba', 'Brasília'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
).filter((s) => toAsciiUpper(s) !== '');
/** R$ 1,00 .. R$ 100.000,00, the default charge range of docs/decisions.md. */
const amountsCents = fc.integer({ min: 100, max: 10_000_000 });
const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/);

describe('pix-utils accepts the payloads we build', () => {
  it('accepts the three known-good payloads of pix-facts.md (sanity check of the judge)', () => {
    expect(judge(
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    ).type).toBe('STATIC');
    expect(judge(
      '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4',
    ).type).toBe('DYNAMIC');
    expect(judge(
      '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6',
    ).type).toBe('STATIC');
  });

  it('accepts a charge at both ends of the amount range: R$ 1,00 and R$ 100.000,00', () => {
    for (const amountCents of [100, 10_000_000]) {
      const pix = judge(buildStaticBrCode({ pixKey: 'a@b.co', merchantName: 'Loja', merchantCity: 'Recife', amountCents }));
      expect(isStaticPix(pix) && pix.transactionAmount).toBe(amountCents / 100);
    }
  });

  it('dynamic charges (the gateway layout) with any merchant name, city and amount', () => {
    fc.assert(
      fc.property(names, cities, amountsCents, hex24, (merchantName, merchantCity, amountCents, id) => {
        const locationUrl = `pix.pixgate.com.br/qr/v2/${id}`;
        const pix = judge(buildDynamicBrCode({ locationUrl, merchantName, merchantCity, amountCents }));
        expect(isDynamicPix(pix)).toBe(true);
        if (!isDynamicPix(pix)) return;
        expect(pix.url).toBe(locationUrl);
        expect(pix.merchantName).toBe(toAsciiUpper(merchantName).slice(0, 25).trimEnd());
        expect(pix.merchantCity).toBe(toAsciiUpper(merchantCity).slice(0, 15).trimEnd());
      }),
      { numRuns: 500 },
    );
  });

  it('static codes with any key type, description and amount, reading the amount back exactly', () => {
    const pixKeys = fc.oneof(
      fc.constantFrom('52998224725', '11222333000181', '12ABC34501DE35', '+5511999998888'),
      fc.uuid().map((uuid) => uuid.toLowerCase()),
      fc.stringMatching(/^[a-z0-9._]{1,30}@[a-z0-9]{1,20}\.com\.br$/),
    );
    const descriptions = fc.option(fc.stringMatching(/^[A-Za-z0-9 ]{1,15}$/), { nil: undefined });
    fc.assert(
      fc.property(pixKeys, descriptions, names, cities, amountsCents, (pixKey, description, merchantName, merchantCity, amountCents) => {
        const pix = judge(buildStaticBrCode({ pixKey, description, merchantName, merchantCity, amountCents }));
        expect(isStaticPix(pix)).toBe(true);
        if (!isStaticPix(pix)) return;
        expect(pix.pixKey).toBe(pixKey);
        expect(Math.round((pix.transactionAmount ?? 0) * 100)).toBe(amountCents);
      }),
      { numRuns: 500 },
    );
  });
});
