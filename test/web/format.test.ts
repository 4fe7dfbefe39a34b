import { describe, expect, it } from 'vitest';
import { deliveryErrorLabel } from '../../web/shared/format.ts';

/** The sender's recorded failures read in Portuguese on both applications (issue 22, defect 11). */
describe('deliveryErrorLabel', () => {
  it.each([
    ['timeout', 'Sem resposta no prazo.'],
    ['unsafe address', 'Endereço recusado: rede privada, interna ou de metadados.'],
    ['redirect not followed', 'Redirecionamento não seguido: cadastre a URL final.'],
    ['network: connect ECONNREFUSED 127.0.0.1:9', 'Falha de rede (connect ECONNREFUSED 127.0.0.1:9).'],
  ])('%s', (recorded, shown) => {
    expect(deliveryErrorLabel(recorded)).toBe(shown);
  });
});
