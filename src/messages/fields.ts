import { echo, formatBrl, messages } from './merchant.ts';

/**
 * What people read when a form field is refused, in the dashboard (`/dashboard/api/v1`) and in the console
 * (`/admin/v1`): the field's LABEL as the page shows it (never the API's field name) and what to do about
 * it, e.g. `Observação: máximo de 200 caracteres.`. The answer also carries the field's API name in
 * `field`, so the page puts the message beside the field. The merchant API (`/v1`) keeps the contract's
 * texts (`./merchant.ts`); these are for the two web applications only.
 *
 * Labels are looked up by the field's dotted path first (`customer.name`), then by its last name
 * (`name`), in the API's own dictionary, then in the other API's; a field with no label at all (one added
 * since) reads "Campo" (the `field` still points at it) and a test lists it.
 */

/** The dashboard's fields, as its pages name them (web/dashboard/src/pages). */
export const DASHBOARD_LABELS: Readonly<Record<string, string>> = {
  email: 'E-mail',
  password: 'Senha',
  name: 'Nome',
  legalName: 'Razão social',
  responsibleCpf: 'CPF do responsável',
  companyCnpj: 'CNPJ da empresa',
  token: 'Link',
  totpCode: 'Código do aplicativo autenticador',
  recoveryCode: 'Código de recuperação',
  role: 'Papel',
  label: 'Nome da chave',
  url: 'URL',
  events: 'Eventos',
  description: 'Descrição',
  enabled: 'Ativo',
  endpointId: 'URL de webhook',
  userId: 'Usuário',
  keyId: 'Chave',
  eventId: 'Evento',
  transactionId: 'Transação',
  event: 'Evento',
  outcome: 'Resultado',
  type: 'Tipo',
  limit: 'Quantidade por página',
  action: 'Ação',
  amountCents: 'Valor',
  document: 'Documento',
  documentType: 'Tipo de documento',
  pixKey: 'Chave Pix',
  pixKeyType: 'Tipo de chave Pix',
  recipientId: 'Destinatário',
  externalRef: 'Referência',
  status: 'Situação',
  cursor: 'Página',
  createdFrom: 'De',
  createdTo: 'Até',
  from: 'Data inicial',
  to: 'Data final',
  size: 'Tamanho',
  format: 'Formato',
  expiresInDays: 'Validade (dias)',
  customer: 'Pagador',
  'customer.name': 'Nome do pagador',
  'customer.email': 'E-mail do pagador',
  'customer.phone': 'Telefone do pagador',
  'customer.document': 'Documento do pagador',
  'customer.document.number': 'CPF ou CNPJ do pagador',
  'customer.document.type': 'Tipo de documento do pagador',
  search: 'Buscar',
  pixgate_outbox: 'Chave da caixa de saída',
  currentPassword: 'Senha atual',
  newPassword: 'Nova senha',
  required: 'Exigir verificação em duas etapas',
  sessionId: 'Sessão',
  city: 'Cidade',
  state: 'Estado (UF)',
  q: 'Buscar',
  // Charges with a due date (issue 36), as "Nova cobrança com vencimento" and its list name them.
  dueDate: 'Vencimento',
  daysAfterDue: 'Dias para pagar após o vencimento',
  dueFrom: 'Vencimento de',
  dueTo: 'Vencimento até',
  'customer.address': 'Endereço do pagador',
  'customer.address.street': 'Endereço do pagador (rua e número)',
  'customer.address.city': 'Cidade do pagador',
  'customer.address.state': 'UF do pagador',
  'customer.address.postalCode': 'CEP do pagador',
  fine: 'Multa',
  'fine.mode': 'Tipo de multa',
  'fine.amountCents': 'Multa (R$)',
  'fine.basisPoints': 'Multa em pontos-base (100 = 1%)',
  interest: 'Juros',
  'interest.mode': 'Tipo de juros',
  'interest.amountCents': 'Juros por dia (R$)',
  'interest.basisPoints': 'Juros em pontos-base (100 = 1%)',
  discount: 'Desconto',
  'discount.mode': 'Tipo de desconto',
  'discount.dates': 'Datas do desconto',
  'discount.dates.date': 'Desconto até',
  'discount.dates.amountCents': 'Desconto (R$)',
  'discount.dates.basisPoints': 'Desconto em pontos-base (100 = 1%)',
  'discount.amountCents': 'Desconto por dia antecipado (R$)',
  'discount.basisPoints': 'Desconto por dia antecipado em pontos-base (100 = 1%)',
  rebate: 'Abatimento',
  'rebate.mode': 'Tipo de abatimento',
  'rebate.amountCents': 'Abatimento (R$)',
  'rebate.basisPoints': 'Abatimento em pontos-base (100 = 1%)',
  // Static QR codes (issue 36), as "QR codes estáticos" names them.
  staticQrCodeId: 'QR code estático',
  // Payment links (issue 36), as "Novo link de pagamento" and its pages name them.
  linkId: 'Link de pagamento',
  reusable: 'Uso do link',
  // Pix Automático (issue 37), as "Nova recorrência" and its pages name them.
  recurrenceId: 'Recorrência',
  payer: 'Pagador',
  'payer.name': 'Nome do pagador',
  'payer.document': 'Documento do pagador',
  'payer.document.number': 'CPF ou CNPJ do pagador',
  'payer.document.type': 'Tipo de documento do pagador',
  contract: 'Contrato',
  object: 'Objeto',
  periodicity: 'Periodicidade',
  startDate: 'Data de início',
  endDate: 'Data de término',
  minimumAmountCents: 'Valor mínimo',
  retryPolicy: 'Novas tentativas',
  consent: 'Autorização',
  'consent.journey': 'Forma de autorização',
  'consent.payerAccount': 'Conta do pagador',
  'consent.payerAccount.ispb': 'ISPB do banco do pagador',
  'consent.payerAccount.branch': 'Agência do pagador',
  'consent.payerAccount.account': 'Conta do pagador',
  'consent.expiresInDays': 'Prazo para autorizar (dias)',
  'consent.firstPaymentCents': 'Primeiro pagamento',
  refusalCode: 'Código da recusa',
};

/** The console's fields, as its pages name them (web/console/src/pages). */
export const ADMIN_LABELS: Readonly<Record<string, string>> = {
  // The sandbox's payer's bank for Pix Automático.
  rejectionCode: 'Código da rejeição',
  cancellationCode: 'Código do cancelamento',
  refusalCode: 'Código da recusa',
  payerMaximumCents: 'Máximo aceito pelo pagador (R$)',
  by: 'Quem cancela',
  accountId: 'Conta',
  legalName: 'Razão social',
  responsibleCpf: 'CPF do responsável',
  companyCnpj: 'CNPJ',
  email: 'E-mail',
  password: 'Senha',
  name: 'Nome',
  totpCode: 'Código do aplicativo autenticador',
  kycStatus: 'Situação do KYC',
  emailVerified: 'E-mail do cadastro',
  blocked: 'Bloqueada',
  active: 'Ativo',
  ipAllowlist: 'IPs permitidos',
  chargeMinCents: 'Cobrança mínima (R$)',
  chargeMaxCents: 'Cobrança máxima (R$)',
  chargeFeeFixedCents: 'Tarifa fixa por cobrança (R$)',
  chargeFeeBps: 'Tarifa proporcional por cobrança (pontos-base)',
  chargeRatePerHour: 'Cobranças por hora',
  withdrawalFeeFixedCents: 'Tarifa fixa por saque (R$)',
  withdrawalFeeBps: 'Tarifa proporcional por saque (pontos-base)',
  withdrawalMaxCents: 'Saque máximo (R$)',
  withdrawalDailyCapCents: 'Limite diário de saques (R$)',
  withdrawalMonthlyCapCents: 'Limite mensal de saques (R$)',
  withdrawalApprovalMode: 'Aprovação de saques',
  withdrawalApprovalThresholdCents: 'Aprovação manual a partir de (R$)',
  withdrawalKeyTypes: 'Tipos de chave Pix permitidos para saque',
  withdrawalsPerSecond: 'Saques por segundo',
  withdrawalsPerMinute: 'Saques por minuto',
  withdrawalsPerHour: 'Saques por hora',
  recipientLimit: 'Teto de destinatários ativos',
  recipientsPerHour: 'Cadastros de destinatário por hora',
  amountCents: 'Valor (R$)',
  reason: 'Motivo',
  note: 'Observação',
  transactionId: 'Cobrança',
  holdId: 'Bloqueio',
  keyId: 'Chave de API',
  label: 'Nome da chave',
  operatorId: 'Operador',
  roles: 'Papéis',
  recipientId: 'Destinatário',
  refundId: 'Devolução',
  eventId: 'Evento',
  endpointId: 'URL de webhook',
  url: 'URL',
  events: 'Eventos',
  enabled: 'Ativo',
  description: 'Descrição',
  action: 'Ação',
  actorId: 'Operador',
  targetId: 'Alvo',
  beforeId: 'Página',
  cursor: 'Página',
  from: 'Data inicial',
  to: 'Data final',
  full: 'Completo',
  limit: 'Quantidade',
  status: 'Situação',
  count: 'Quantidade',
  operation: 'Operação',
  outcome: 'Resultado',
  refusedCode: 'Código da recusa',
  refusedReason: 'Motivo da recusa',
  endToEndId: 'Identificador fim a fim (E2E)',
  // MED infractions and the reconciliation (issue 32).
  infractionId: 'Infração MED',
  analysis: 'Posição do lojista',
  text: 'Justificativa',
  situation: 'Tipo de situação',
  breakId: 'Divergência',
  kind: 'Tipo de divergência',
  settlement: 'Quem assume o valor',
  day: 'Dia',
  beneficiary: 'Favorecido',
  'beneficiary.name': 'Nome do favorecido',
  'beneficiary.document': 'Documento do favorecido',
  'beneficiary.documentType': 'Tipo de documento do favorecido',
  'beneficiary.bankAccount': 'Conta do favorecido',
  beneficiaryBankAccount: 'Conta do favorecido',
  payer: 'Pagador',
  'payer.name': 'Nome do pagador',
  'payer.document': 'Documento do pagador',
  'payer.documentType': 'Tipo de documento do pagador',
  'payer.bankAccount': 'Conta do pagador',
  bankAccount: 'Conta bancária',
  ispb: 'ISPB da instituição',
  branch: 'Agência',
  account: 'Número da conta',
  document: 'Documento',
  documentType: 'Tipo de documento',
  search: 'Buscar',
};

/** The label of `field` (its dotted API name) in `labels`, then in the other dictionary; "Campo" when none has it. */
export function labelOf(field: string, labels: Readonly<Record<string, string>>): string {
  const path = field.split('.').filter((segment) => !/^\d+$/.test(segment));
  const candidates = [path.join('.'), path.slice(-2).join('.'), path.at(-1) ?? ''];
  for (const dictionary of [labels, labels === DASHBOARD_LABELS ? ADMIN_LABELS : DASHBOARD_LABELS]) {
    for (const candidate of candidates) {
      const label = dictionary[candidate];
      if (label !== undefined) return label;
    }
  }
  return UNLABELLED;
}

export const UNLABELLED = 'Campo';

/** Whether `field` holds an amount in centavos (its limits are shown in reais). */
export const isAmountField = (field: string): boolean => /Cents$/.test(field);

/** A limit of an amount field or of a number, as people read it (`R$ 1,00`, `1.000`). */
export const numberText = (field: string, value: number): string => (isAmountField(field) ? formatBrl(value) : value.toLocaleString('pt-BR'));

export const fieldMessages = {
  required: messages.formRequired,
  minLength: messages.formMinLength,
  maxLength: messages.formMaxLength,
  email: messages.formEmail,
  invalid: messages.formInvalid,
  notInteger: (label: string) => `${label}: informe um número inteiro, sem letras.`,
  notNumber: (label: string) => `${label}: informe um número.`,
  notAmount: (label: string) => `${label}: informe um valor em reais, por exemplo 150,00.`,
  notText: (label: string) => `${label}: informe um texto.`,
  notChoice: (label: string) => `${label}: marque ou desmarque a opção.`,
  notList: (label: string) => `${label}: informe uma lista.`,
  notGroup: (label: string) => `${label}: preencha os campos deste grupo.`,
  minimum: (label: string, limit: string) => `${label}: o mínimo é ${limit}.`,
  maximum: (label: string, limit: string) => `${label}: o máximo é ${limit}.`,
  above: (label: string, limit: string) => `${label}: deve ser maior que ${limit}.`,
  below: (label: string, limit: string) => `${label}: deve ser menor que ${limit}.`,
  multipleOf: (label: string, step: string) => `${label}: use múltiplos de ${step}.`,
  choice: (label: string) => `${label}: escolha uma das opções da lista.`,
  minItems: (label: string, min: string) => `${label}: escolha pelo menos ${min}.`,
  maxItems: (label: string, max: string) => `${label}: escolha no máximo ${max}.`,
  uniqueItems: (label: string) => `${label}: há itens repetidos; informe cada um uma vez.`,
  date: (label: string) => `${label}: informe uma data no formato AAAA-MM-DD.`,
  dateTime: (label: string) => `${label}: informe data e hora completas (AAAA-MM-DDTHH:MM:SSZ).`,
  url: (label: string) => `${label}: informe um endereço completo, começando por https://.`,
  ipAllowlistEntry: (label: string) => `${label}: cada item deve ser um endereço IPv4 ou IPv6 ou uma faixa CIDR (ex.: 203.0.113.0/24).`,
  /** A value that does not have the field's shape; `hint` says which shape, when known. */
  pattern: (label: string, hint: string | undefined) => (hint ? `${label}: ${hint}` : `${label}: formato inválido; confira o que foi digitado.`),
  unknownField: messages.unknownField,
  unknownQueryParameter: messages.unknownQueryParameter,
  nothingToChange: messages.formNothingToChange,
  oneOfFields: messages.formOneOfFields,
  bodyNotObject: messages.bodyNotObject,
  echo,
} as const;

/** What a value of a patterned field looks like, by the field's last name. */
export const PATTERN_HINTS: Readonly<Record<string, string>> = {
  totpCode: 'informe os 6 dígitos mostrados no aplicativo.',
  recoveryCode: 'informe o código como foi entregue (ex.: abcde-fghij).',
  responsibleCpf: 'informe os 11 dígitos do CPF (pontos e traço são opcionais).',
  companyCnpj: 'informe os 14 dígitos do CNPJ (pontos, barra e traço são opcionais).',
  document: 'use apenas dígitos, pontos, traços e barras.',
  number: 'use apenas dígitos, pontos, traços e barras.',
  pixKey: 'a chave não tem o formato do tipo escolhido.',
  phone: 'informe DDD e número, com 10 ou 11 dígitos.',
  token: 'o link está incompleto; abra-o de novo a partir do e-mail.',
  endToEndId: 'informe os 32 caracteres do identificador (começa por E).',
  ispb: 'informe os 8 dígitos do ISPB.',
  branch: 'informe a agência só com dígitos.',
  account: 'informe o número da conta só com dígitos (e o dígito verificador).',
  from: 'informe uma data no formato AAAA-MM-DD.',
  cursor: 'a página pedida não existe mais; volte à primeira página.',
  legalName: 'informe pelo menos 2 letras ou números, não só espaços.',
  documentType: 'escolha CPF ou CNPJ.',
  'customer.document.type': 'escolha CPF ou CNPJ.',
  pixKeyType: 'escolha CPF, CNPJ, e-mail, telefone ou chave aleatória.',
  to: 'informe uma data no formato AAAA-MM-DD.',
  'customer.name': 'informe o nome, não só espaços.',
  'customer.address.street': 'informe a rua e o número, não só espaços.',
  'customer.address.city': 'informe a cidade, não só espaços.',
  'customer.address.postalCode': 'informe os 8 dígitos do CEP, sem traço.',
  dueFrom: 'informe uma data no formato AAAA-MM-DD.',
  dueTo: 'informe uma data no formato AAAA-MM-DD.',
  'payer.name': 'informe o nome, não só espaços.',
  'payer.document.type': 'escolha CPF ou CNPJ.',
  contract: 'informe o contrato, não só espaços.',
  object: 'informe o objeto, não só espaços.',
  refusalCode: 'informe os 4 caracteres do código (ex.: AM02).',
};

/** An identifier of something the page lists (a path or query parameter): the person picked it from a list. */
export const identifierHint = 'identificador inválido; escolha um item da lista.';
/** An identifier typed into a form (copied from another page). */
export const copiedIdentifierHint = 'identificador inválido; copie-o de novo da página de origem.';

/** A transaction's status as the pages name it (the API's status words are not shown to people). */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'pendente',
  processing: 'em processamento',
  pending_approval: 'aguardando aprovação',
  paid: 'paga',
  failed: 'falhou',
  failed_unknown: 'em verificação',
  cancelled: 'cancelada',
  expired: 'expirada',
  refunded: 'devolvida',
  partially_refunded: 'devolvida em parte',
};
const statusText = (status: string): string => STATUS_LABELS[status] ?? 'outra';
/** A calendar day `AAAA-MM-DD` as people write it, `10/12/2026`. */
const dayText = (date: string): string => date.split('-').reverse().join('/');

const KEY_TYPE_LABELS: Readonly<Record<string, string>> = { cpf: 'CPF', cnpj: 'CNPJ', email: 'e-mail', phone: 'telefone', evp: 'chave aleatória' };
const keyTypeText = (keyType: string): string => KEY_TYPE_LABELS[keyType.trim().toLowerCase()] ?? 'informado';

/**
 * The dashboard's own texts of the domain refusals whose merchant API text names an API field, a status
 * word or centavos (src/http/errorMapping.ts uses them for the dashboard audience).
 */
/** How the provider closed a MED infraction, in the dashboard's words. */
const INFRACTION_OUTCOME_TEXT: Readonly<Record<string, string>> = {
  accepted: 'aceita pelo provedor',
  rejected: 'recusada pelo provedor',
  cancelled: 'cancelada',
};

export const dashboardTexts = {
  legalName: 'Razão social: mínimo de 2 caracteres.',
  documentType: 'Tipo de documento: escolha CPF ou CNPJ.',
  documentCharacters: 'Documento: use apenas dígitos, pontos, traços e barras.',
  cpfLength: (digits: number) => `Documento: um CPF tem 11 dígitos; foram informados ${digits}.`,
  cnpjLength: (digits: number) => `Documento: um CNPJ tem 14 dígitos; foram informados ${digits}.`,
  cpfInvalid: 'Documento: CPF inválido (dígito verificador incorreto); confira os números.',
  cnpjInvalid: 'Documento: CNPJ inválido (dígito verificador incorreto); confira os números.',
  customerCharacters: 'CPF ou CNPJ do pagador: use apenas dígitos, pontos, traços e barras.',
  customerCpfLength: (digits: number) => `CPF ou CNPJ do pagador: um CPF tem 11 dígitos; foram informados ${digits}.`,
  customerCnpjLength: (digits: number) => `CPF ou CNPJ do pagador: um CNPJ tem 14 dígitos; foram informados ${digits}.`,
  customerCpfInvalid: 'CPF ou CNPJ do pagador: CPF inválido (dígito verificador incorreto).',
  customerCnpjInvalid: 'CPF ou CNPJ do pagador: CNPJ inválido (dígito verificador incorreto).',
  customerDocumentType: 'Tipo de documento do pagador: escolha CPF ou CNPJ.',
  pixKeyType: 'Tipo de chave Pix: escolha CPF, CNPJ, e-mail, telefone ou chave aleatória.',
  pixKeyInvalid: (keyType: string) => `Chave Pix: não é uma chave do tipo ${keyTypeText(keyType)}; confira o que foi digitado.`,
  pixKeyTypeNotAllowed: (keyType: string) => `Tipo de chave Pix: saques com chave do tipo ${keyTypeText(keyType)} não estão liberados para esta conta.`,
  recipientIdInvalid: 'Destinatário: escolha um destinatário da lista.',
  cursorInvalid: 'A página pedida não existe mais: volte à primeira página.',
  createdRangeEmpty: 'Até: a data final deve ser posterior à inicial.',
  chargeNotPayable: (status: string) => `A cobrança não pode ser paga: ela está ${statusText(status)}.`,
  chargeNotPending: (status: string) => `A cobrança não está pendente: ela está ${statusText(status)}.`,
  refundChargeNotPaid: (status: string) => `Só cobranças pagas podem ser devolvidas; esta está ${statusText(status)}.`,
  refundAboveRefundable: (remainingCents: number) => `Valor: acima do disponível para devolução desta cobrança; restam ${formatBrl(remainingCents)}.`,
  providerActionRefused: (status: string) => `O provedor não aceita esta ação neste saque (ele está ${statusText(status)}).`,
  refundActionRefused: (status: string) => `O provedor não aceita esta ação nesta devolução (ela está ${statusText(status)}).`,
  withdrawConfirmationCut: 'Saque iniciado, mas a confirmação foi interrompida. Veja a situação dele na lista de transações.',
  infractionClosed: (status: string) => `Esta infração MED não aceita mais defesa: ela foi ${INFRACTION_OUTCOME_TEXT[status] ?? 'encerrada'}.`,
  // Charges with a due date (issue 36): the merchant API's texts name `dueDate`, `fine`, `discount.dates`, status words.
  dueDateInPast: (today: string) => `Vencimento: não pode ser anterior a hoje (${dayText(today)}).`,
  dueDateTooFar: (last: string) => `Vencimento: deve ser até ${dayText(last)} (no máximo 5 anos à frente).`,
  dueTermMalformed: {
    fine: 'Multa: informe o percentual (multa em %) ou o valor em reais (multa em R$), um dos dois.',
    interest: 'Juros: informe o percentual nos juros em %, ou o valor em reais por dia nos juros em R$, um dos dois.',
    discount: 'Desconto: informe de 1 a 3 datas, cada uma com seu desconto, nos descontos até uma data; ou o desconto por dia de antecedência nos demais.',
    rebate: 'Abatimento: informe o percentual (abatimento em %) ou o valor em reais (abatimento em R$), um dos dois.',
  },
  discountDateAfterDue: (date: string) => `Desconto: a data ${dayText(date)} é posterior ao vencimento; o desconto vale até o vencimento.`,
  discountDateRepeated: (date: string) => `Desconto: a data ${dayText(date)} aparece mais de uma vez.`,
  discountNotBelowAmount: 'Desconto: deve ser menor que o valor da cobrança.',
  rebateNotBelowAmount: 'Abatimento: deve ser menor que o valor da cobrança.',
  dueAmountBelowPermitted: (cents: number) => `Valor: com desconto e abatimento, o valor a pagar fica abaixo do mínimo permitido (${formatBrl(cents)}).`,
  dueAmountOutOfRange: (limit: 'minimum' | 'maximum' | 'permittedMinimum' | 'permittedMaximum', cents: number) =>
    ({
      minimum: `Valor: o mínimo é ${formatBrl(cents)}.`,
      maximum: `Valor: o máximo é ${formatBrl(cents)}.`,
      permittedMinimum: `Valor: o mínimo permitido é ${formatBrl(cents)} (o valor precisa cobrir a tarifa).`,
      permittedMaximum: `Valor: o máximo permitido é ${formatBrl(cents)}.`,
    })[limit],
  dueChargeNotPending: (action: 'change' | 'cancel', status: string) =>
    action === 'cancel' ? `A cobrança não pode ser cancelada: ela está ${statusText(status)}.` : `A cobrança não pode mais ser alterada: ela está ${statusText(status)}.`,
  dueRangeEmpty: 'Vencimento até: a data final deve ser igual ou posterior à inicial.',
  dayInvalid: (field: string) => `${labelOf(field, DASHBOARD_LABELS)}: esta data não existe no calendário; confira o dia e o mês.`,
  // Static QR codes (issue 36): the merchant API's text names `description`.
  staticDescriptionRoom: (maxLength: number) => `Descrição: máximo de ${maxLength} caracteres nesta instalação (cabe no QR code com a chave Pix).`,
} as const;

/** The console's texts of the back office's own field refusals (the rest of its catalogue is ./operator.ts). */
export const consoleTexts = {
  accountDocument: (field: string, documentType: 'cpf' | 'cnpj', problem: 'characters' | 'length' | 'checkDigits') => {
    const label = labelOf(field, ADMIN_LABELS);
    const kind = documentType.toUpperCase();
    if (problem === 'characters') return `${label}: use apenas dígitos, pontos, traços e barras.`;
    if (problem === 'length') return `${label}: um ${kind} tem ${documentType === 'cpf' ? 11 : 14} dígitos; confira o que foi digitado.`;
    return `${label}: ${kind} inválido (dígito verificador incorreto); confira os números.`;
  },
  chargeRange: 'Cobrança máxima (R$): deve ser igual ou maior que a cobrança mínima.',
} as const;
