import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeFieldIssue, describeFieldIssues, type FieldIssue } from '../../src/http/fieldProblems.ts';
import { ADMIN_LABELS, DASHBOARD_LABELS, labelOf, UNLABELLED } from '../../src/messages/fields.ts';

/**
 * Issue 22, defect 11: each finding of express-openapi-validator (Ajv's English, one per keyword) as the
 * dashboard and the console show it: Portuguese, the field's label, what to do, amounts in reais.
 */

const issue = (path: string, keyword: string, message: string): FieldIssue => ({ path, message, errorCode: `${keyword}.openapi.validation` });
const admin = (item: FieldIssue) => describeFieldIssue(item, ADMIN_LABELS);
const dashboard = (item: FieldIssue) => describeFieldIssue(item, DASHBOARD_LABELS);

describe('every keyword the validator emits, in Portuguese with the label', () => {
  const cases: [string, FieldIssue, string, string][] = [
    ['required', issue('/body/legalName', 'required', "must have required property 'legalName'"), 'Razão social: campo obrigatório.', 'legalName'],
    ['type (text)', issue('/body/note', 'type', 'must be string'), 'Observação: informe um texto.', 'note'],
    ['type (integer)', issue('/body/recipientLimit', 'type', 'must be integer'), 'Teto de destinatários ativos: informe um número inteiro, sem letras.', 'recipientLimit'],
    ['type (amount)', issue('/body/amountCents', 'type', 'must be integer'), 'Valor (R$): informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['type (number)', issue('/body/chargeFeeBps', 'type', 'must be number'), 'Tarifa proporcional por cobrança (pontos-base): informe um número.', 'chargeFeeBps'],
    ['type (boolean)', issue('/body/blocked', 'type', 'must be boolean'), 'Bloqueada: marque ou desmarque a opção.', 'blocked'],
    ['type (array)', issue('/body/roles', 'type', 'must be array'), 'Papéis: informe uma lista.', 'roles'],
    ['type (object)', issue('/body/beneficiary', 'type', 'must be object'), 'Favorecido: preencha os campos deste grupo.', 'beneficiary'],
    ['minLength', issue('/body/legalName', 'minLength', 'must NOT have fewer than 2 characters'), 'Razão social: mínimo de 2 caracteres.', 'legalName'],
    ['minLength 1', issue('/body/reason', 'minLength', 'must NOT have fewer than 1 characters'), 'Motivo: campo obrigatório.', 'reason'],
    ['maxLength', issue('/body/note', 'maxLength', 'must NOT have more than 200 characters'), 'Observação: máximo de 200 caracteres.', 'note'],
    ['pattern (identifier)', issue('/query/accountId', 'pattern', 'must match pattern "^acc_[0-9A-Za-z]{24}$"'), 'Conta: identificador inválido; escolha um item da lista.', 'accountId'],
    ['pattern (hint)', issue('/body/totpCode', 'pattern', 'must match pattern "^[0-9]{6}$"'), 'Código do aplicativo autenticador: informe os 6 dígitos mostrados no aplicativo.', 'totpCode'],
    ['pattern (nested)', issue('/body/beneficiary/bankAccount/ispb', 'pattern', 'must match pattern "^[0-9]{8}$"'), 'ISPB da instituição: informe os 8 dígitos do ISPB.', 'beneficiary.bankAccount.ispb'],
    ['pattern (blank)', issue('/body/legalName', 'pattern', 'must match pattern "\\S"'), 'Razão social: campo obrigatório.', 'legalName'],
    ['pattern (list entry)', issue('/body/ipAllowlist/2', 'pattern', 'must match pattern "^x$"'), 'IPs permitidos: cada item deve ser um endereço IPv4 ou IPv6 ou uma faixa CIDR (ex.: 203.0.113.0/24).', 'ipAllowlist.2'],
    ['format email', issue('/body/email', 'format', 'must match format "email"'), 'E-mail: informe um endereço válido.', 'email'],
    ['format date', issue('/query/from', 'format', 'must match format "date"'), 'Data inicial: informe uma data no formato AAAA-MM-DD.', 'from'],
    ['format date-time', issue('/query/to', 'format', 'must match format "date-time"'), 'Data final: informe data e hora completas (AAAA-MM-DDTHH:MM:SSZ).', 'to'],
    ['format uri', issue('/body/url', 'format', 'must match format "uri"'), 'URL: informe um endereço completo, começando por https://.', 'url'],
    ['enum', issue('/body/kycStatus', 'enum', 'must be equal to one of the allowed values: pending, approved, rejected'), 'Situação do KYC: escolha uma das opções da lista.', 'kycStatus'],
    ['const', issue('/body/operation', 'const', 'must be equal to constant'), 'Operação: escolha uma das opções da lista.', 'operation'],
    ['minimum (amount in reais)', issue('/body/amountCents', 'minimum', 'must be >= 100'), 'Valor (R$): o mínimo é R$ 1,00.', 'amountCents'],
    ['maximum (amount in reais)', issue('/body/withdrawalMaxCents', 'maximum', 'must be <= 100000000'), 'Saque máximo (R$): o máximo é R$ 1.000.000,00.', 'withdrawalMaxCents'],
    ['minimum (number)', issue('/query/limit', 'minimum', 'must be >= 1'), 'Quantidade: o mínimo é 1.', 'limit'],
    ['maximum (number)', issue('/body/chargeFeeBps', 'maximum', 'must be <= 10000'), 'Tarifa proporcional por cobrança (pontos-base): o máximo é 10.000.', 'chargeFeeBps'],
    ['exclusiveMinimum', issue('/body/amountCents', 'exclusiveMinimum', 'must be > 0'), 'Valor (R$): deve ser maior que R$ 0,00.', 'amountCents'],
    ['exclusiveMaximum', issue('/body/withdrawalsPerHour', 'exclusiveMaximum', 'must be < 1000'), 'Saques por hora: deve ser menor que 1.000.', 'withdrawalsPerHour'],
    ['multipleOf', issue('/body/chargeFeeBps', 'multipleOf', 'must be multiple of 5'), 'Tarifa proporcional por cobrança (pontos-base): use múltiplos de 5.', 'chargeFeeBps'],
    ['minItems', issue('/body/roles', 'minItems', 'must NOT have fewer than 1 items'), 'Papéis: campo obrigatório.', 'roles'],
    ['minItems 2', issue('/body/events', 'minItems', 'must NOT have fewer than 2 items'), 'Eventos: escolha pelo menos 2.', 'events'],
    ['maxItems', issue('/body/ipAllowlist', 'maxItems', 'must NOT have more than 50 items'), 'IPs permitidos: escolha no máximo 50.', 'ipAllowlist'],
    ['uniqueItems', issue('/body/roles', 'uniqueItems', 'must NOT have duplicate items (items ## 1 and 0 are identical)'), 'Papéis: há itens repetidos; informe cada um uma vez.', 'roles'],
    ['oneOf', issue('/body/beneficiary', 'oneOf', 'must match exactly one schema in oneOf'), 'Favorecido: valor inválido.', 'beneficiary'],
    ['anyOf', issue('/body/payer', 'anyOf', 'must match a schema in anyOf'), 'Pagador: valor inválido.', 'payer'],
    ['additionalProperties', issue('/body/campoExtra', 'additionalProperties', 'must NOT have additional properties'), "Campo não permitido: 'campoExtra'.", 'campoExtra'],
    ['unknown query parameter', { path: '/query/pagina', message: "Unknown query parameter 'pagina'" }, "Parâmetro de consulta não permitido: 'pagina'.", 'pagina'],
    ['reserved characters', { path: '/query/cursor', message: "Parameter 'cursor' must be url encoded. Its value may not contain reserved characters." }, 'Página: a página pedida não existe mais; volte à primeira página.', 'cursor'],
    ['empty query value', { path: '/query/status', message: "Empty value found for query parameter 'status'" }, 'Situação: campo obrigatório.', 'status'],
  ];
  for (const [name, item, message, field] of cases) {
    it(name, () => {
      expect(admin(item)).toEqual({ message, field });
    });
  }

  it('the body as a whole: not an object, nothing to change, one field only', () => {
    expect(admin(issue('/body', 'type', 'must be object'))).toEqual({ message: 'O corpo da requisição deve ser um objeto JSON.' });
    expect(admin(issue('/body', 'minProperties', 'must NOT have fewer than 1 properties'))).toEqual({ message: 'Informe ao menos um campo para alterar.' });
    expect(admin(issue('/body', 'maxProperties', 'must NOT have more than 1 properties'))).toEqual({ message: 'Informe apenas um dos campos.' });
  });

  it('an identifier of the wrong shape or length is not one: no length or pattern talk', () => {
    expect(admin(issue('/params/accountId', 'minLength', 'must NOT have fewer than 28 characters'))).toEqual({
      message: 'Conta: identificador inválido; escolha um item da lista.',
      field: 'accountId',
    });
    expect(admin(issue('/body/transactionId', 'maxLength', 'must NOT have more than 27 characters'))).toEqual({
      message: 'Cobrança: identificador inválido; copie-o de novo da página de origem.',
      field: 'transactionId',
    });
  });

  it('many entries of a list failing alike make one sentence', () => {
    const problems = describeFieldIssues(
      [0, 1, 2].map((index) => issue(`/body/ipAllowlist/${index}`, 'pattern', 'must match pattern "x"')),
      ADMIN_LABELS,
    );
    expect(problems).toEqual([{ message: 'IPs permitidos: cada item deve ser um endereço IPv4 ou IPv6 ou uma faixa CIDR (ex.: 203.0.113.0/24).', field: 'ipAllowlist.0' }]);
  });

  it('the dashboard uses its own pages\' labels', () => {
    expect(dashboard(issue('/body/amountCents', 'minimum', 'must be >= 100'))).toEqual({ message: 'Valor: o mínimo é R$ 1,00.', field: 'amountCents' });
    expect(dashboard(issue('/body/customer/document/type', 'pattern', 'must match pattern "x"'))).toEqual({
      message: 'Tipo de documento do pagador: escolha CPF ou CNPJ.',
      field: 'customer.document.type',
    });
    expect(dashboard(issue('/query/limit', 'maximum', 'must be <= 100'))).toEqual({ message: 'Quantidade por página: o máximo é 100.', field: 'limit' });
  });

  it('one problem per field, body first, a field\'s own finding before a summary, unknown fields and the body\'s size last', () => {
    const problems = describeFieldIssues(
      [
        issue('/body', 'maxProperties', 'must NOT have more than 1 properties'),
        issue('/body/campoExtra', 'additionalProperties', 'must NOT have additional properties'),
        issue('/body/beneficiary', 'oneOf', 'must match exactly one schema in oneOf'),
        issue('/body/note', 'maxLength', 'must NOT have more than 200 characters'),
        issue('/body/note', 'pattern', 'must match pattern "x"'),
        issue('/body/beneficiary', 'type', 'must be object'),
      ],
      ADMIN_LABELS,
    );
    expect(problems.map((problem) => problem.field)).toEqual(['note', 'beneficiary', 'campoExtra', undefined]);
    expect(problems[1]?.message).toBe('Favorecido: preencha os campos deste grupo.');
    expect(describeFieldIssues([issue('/body/note', 'maxLength', 'x 2'), issue('/body', 'type', 'must be object')], ADMIN_LABELS)).toEqual([
      { message: 'O corpo da requisição deve ser um objeto JSON.' },
    ]);
  });
});

/** Every request field name of a bundled OpenAPI document (bodies, nested too, queries, paths, cookies). */
function requestFieldNames(file: string): string[] {
  const document = JSON.parse(readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const deref = (node: unknown): Record<string, unknown> => {
    let current = node as Record<string, unknown>;
    while (current && typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document) as Record<string, unknown>;
    }
    return current;
  };
  const names = new Set<string>();
  const visit = (node: unknown, prefix: string, depth: number) => {
    const schema = deref(node);
    if (!schema || depth > 8) return;
    for (const key of ['allOf', 'oneOf', 'anyOf']) for (const part of (schema[key] as unknown[] | undefined) ?? []) visit(part, prefix, depth + 1);
    for (const [name, property] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {})) {
      names.add(`${prefix}${name}`);
      visit(property, `${prefix}${name}.`, depth + 1);
    }
    if (schema.items) visit(schema.items, prefix, depth + 1);
  };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const op = operation as { parameters?: unknown[]; requestBody?: unknown };
      for (const parameter of [...((item.parameters as unknown[] | undefined) ?? []), ...(op.parameters ?? [])].map(deref)) names.add(String(parameter.name));
      const body = op.requestBody ? (deref(op.requestBody) as { content?: Record<string, { schema?: unknown }> }) : undefined;
      visit(body?.content?.['application/json']?.schema, '', 0);
    }
  }
  return [...names].sort();
}

describe('a label for every field people can get wrong', () => {
  // A new field without a label reads "Campo: …": add its label (as its page shows it) to src/messages/fields.ts.
  it('the dashboard document', () => {
    expect(requestFieldNames('dashboard-openapi.json').filter((field) => labelOf(field, DASHBOARD_LABELS) === UNLABELLED)).toEqual([]);
  });
  it('the back-office document', () => {
    expect(requestFieldNames('admin-openapi.json').filter((field) => labelOf(field, ADMIN_LABELS) === UNLABELLED)).toEqual([]);
  });
});
