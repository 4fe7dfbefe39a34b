/** Documents as people read them in the console. */

/** A CNPJ as `12.345.678/0001-90` (also the alphanumeric CNPJ); anything else as given. */
export function formatCnpj(cnpj: string): string {
  const compact = cnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(compact)) return cnpj;
  return `${compact.slice(0, 2)}.${compact.slice(2, 5)}.${compact.slice(5, 8)}/${compact.slice(8, 12)}-${compact.slice(12)}`;
}

/** A CPF as `123.456.789-09`; anything else as given. */
export function formatCpf(cpf: string): string {
  const digits = cpf.replace(/\D/g, '');
  return digits.length === 11 ? digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4') : cpf;
}
