/**
 * The Portuguese texts a merchant reads (error messages, refusal reasons, notes), in one place.
 *
 * Messages marked "contract" are copied verbatim from ../shared/spec/pix-gateway-api.md (a test checks
 * each of them against the spec). The others fill gaps the contract leaves ("not shown") and are
 * documented in docs/decisions.md and in the OpenAPI descriptions. Functions build the messages that
 * carry the received value; received values are truncated to 40 characters so an error never echoes
 * a huge payload back.
 */

export const SERVICE_NAME = 'PixGate';

const MAX_ECHO_CHARS = 40;

/** Truncates a received value for echoing in a message ("Recebido: '...'"). */
export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text;
}

/** Formats cents as Brazilian reais, `R$ 1.234,56`. */
export function formatBrl(cents: number): string {
  const reais = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `R$ ${reais.toLocaleString('pt-BR')},${rest}`;
}

export const messages = {
  // 401 (contract)
  apiKeyMissing: 'API key obrigatória. Use: Authorization: Bearer <key>',
  apiKeyInvalid: 'API key inválida ou revogada.',

  // 403 (contract)
  accountNotApproved: 'Conta não está aprovada para uso da API.',
  accountBlocked: 'Conta suspensa. Contate o suporte.',
  ipNotAllowed: 'IP de origem não autorizado para esta chave.',
  // Contract: withdraw/recipient texts "begin `IP de origem não autorizado...`"; the continuation is ours.
  ipNotAllowedWithdraw: 'IP de origem não autorizado para saques com esta chave.',
  ipNotAllowedRecipients: 'IP de origem não autorizado para cadastro de destinatários com esta chave.',
  pixKeyTypeNotAllowed: (keyType: string) => `Tipo de chave PIX '${echo(keyType)}' não autorizado para esta conta.`,
  cpfKeyNotHolder: 'Saque com chave CPF só permitido para o CPF do responsável cadastrado.',
  cnpjKeyNotHolder: 'Saque com chave CNPJ só permitido para o CNPJ cadastrado da empresa.',
  recipientKeyMismatch: 'Chave PIX (CPF/CNPJ) não corresponde ao documento do destinatário autorizado.',

  // 404 (contract)
  transactionNotFound: 'Transação não encontrada.',
  recipientNotFound: 'Destinatário autorizado não encontrado.',

  // 422 (contract)
  insufficientBalance: 'Saldo insuficiente para realizar o saque.',
  recipientDeactivated: `Destinatário desativado pelo time ${SERVICE_NAME}. Saque cancelado.`,
  recipientCeiling: (limit: number) =>
    `Limite de ${limit} destinatários atingido. Remova um inativo ou fale com o suporte.`,

  // 429 (contract)
  chargeRateLimited: 'Limite de requisições atingido. Tente em 1 hora.',
  withdrawPerSecond: 'Aguarde alguns segundos antes do próximo saque.',
  withdrawPerMinute: 'Muitos saques em curto intervalo. Aguarde alguns instantes.',
  withdrawPerHour: 'Limite de saques atingido.',
  withdrawPerHourBurst: 'Muitos saques solicitados. Aguarde alguns minutos.',
  recipientsRateLimited: 'Limite de requisições atingido.',

  // 502 / 202 (contract)
  chargeProviderError: 'Erro ao comunicar com gateway. Tente novamente.',
  withdrawProviderError: 'Erro ao processar saque. O valor não foi debitado.',
  withdrawConfirmationCut: (transactionId: string) =>
    `Saque iniciado mas confirmação interrompida. Consulte /v1/transactions/${transactionId}`,
  withdrawUnknown: 'Saque em verificação. Saldo debitado; status final em até 24h.',
  // 503 (ours, issue 35: docs/decisions.md "Provider profiles"): PSP=apipix has no send API.
  withdrawalsUnavailable: 'Saques indisponíveis: o provedor PIX desta instalação não oferece envio de Pix. O valor não foi debitado.',

  // POST /v1/transactions/{id}/refunds (ours, since 2026-11-26: docs/decisions.md "Refunds")
  refundAmount: 'amountCents deve ser inteiro ≥ 1 (valor em centavos).',
  refundDescription: 'description deve ser texto de no máximo 140 caracteres.',
  refundNotCharge: 'Apenas cobranças (pix_in) podem ser devolvidas.',
  refundChargeNotPaid: (status: string) =>
    `Cobrança com status '${echo(status)}' não pode ser devolvida: apenas cobranças pagas (paid ou partially_refunded).`,
  refundAboveRefundable: (remainingCents: number) =>
    `Valor acima do disponível para devolução desta cobrança: restam ${formatBrl(remainingCents)} (${remainingCents} centavos).`,
  refundWindowExpired: 'Prazo de devolução encerrado: uma cobrança pode ser devolvida em até 90 dias após o pagamento.',
  refundInsufficientBalance: 'Saldo insuficiente para realizar a devolução.',
  refundRateLimited: 'Limite de devoluções atingido. Tente em 1 hora.',
  refundProviderError: 'Erro ao processar devolução. O valor não foi debitado.',
  refundNotSentReason: 'Devolução não encontrada no provedor: não foi enviada. O valor voltou ao saldo.',

  // /v1/due-charges (ours, since 2026-11-29: docs/decisions.md "Charges with a due date")
  dueChargeNotFound: 'Cobrança com vencimento não encontrada.',
  dueDate: (value: unknown) => `dueDate deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  dueDateInPast: (today: string) => `dueDate não pode ser anterior a hoje (${today}).`,
  dueDateTooFar: (last: string) => `dueDate deve ser no máximo ${last}.`,
  daysAfterDue: (value: unknown) => `daysAfterDue deve ser inteiro entre 0 e 365. Recebido: ${echo(value)}.`,
  dueDescription: 'description deve ser texto de no máximo 140 caracteres.',
  dueFine: 'fine deve ser {"mode": "fixed", "amountCents": inteiro ≥ 1} ou {"mode": "percent", "basisPoints": inteiro de 1 a 10000}.',
  dueRebate: 'rebate deve ser {"mode": "fixed", "amountCents": inteiro ≥ 1} ou {"mode": "percent", "basisPoints": inteiro de 1 a 10000}.',
  dueInterest: 'interest deve ter um mode válido, com amountCents (modos fixed_*) ou basisPoints de 1 a 10000 (modos percent_*).',
  dueDiscount: 'discount deve ter um mode válido: dates (1 a 3 datas) nos modos *_until_dates, amountCents ou basisPoints nos demais.',
  discountDateAfterDue: (date: string) => `discount.dates: a data ${date} é posterior ao vencimento.`,
  discountDateRepeated: (date: string) => `discount.dates: a data ${date} aparece mais de uma vez.`,
  discountNotBelowAmount: 'discount deve ser menor que o valor da cobrança.',
  rebateNotBelowAmount: 'rebate deve ser menor que o valor da cobrança.',
  dueAmountBelowPermitted: (cents: number) => `Com desconto e abatimento, o valor a pagar fica abaixo do mínimo permitido (${formatBrl(cents)}).`,
  dueCustomerAddress: 'customer.address deve ter street e city (1 a 200 caracteres), state (UF, ex.: SP) e postalCode (CEP, 8 dígitos).',
  dueCustomerEmail: 'customer.email deve ser um e-mail válido.',
  dueCustomerPhone: 'customer.phone deve ter DDD + número, 10 ou 11 dígitos.',
  nothingToChange: 'Nada a alterar: envie ao menos um campo.',
  dueChargeNotChangeable: (status: string) => `Cobrança com status '${echo(status)}' não pode ser alterada: apenas cobranças pendentes (pending).`,
  dueChargeNotCancellable: (status: string) => `Cobrança com status '${echo(status)}' não pode ser cancelada: apenas cobranças pendentes (pending).`,
  dueListStatus: (value: unknown) =>
    `status deve ser 'pending', 'paid', 'partially_refunded', 'refunded', 'expired' ou 'cancelled'. Recebido: '${echo(value)}'.`,
  dueFrom: (value: unknown) => `dueFrom deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  dueTo: (value: unknown) => `dueTo deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  dueRangeEmpty: 'dueTo deve ser igual ou posterior a dueFrom.',
  amountDueDate: (value: unknown) => `date deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  amountDueDateRange: (value: unknown) => `date deve estar entre 2000-01-01 e 2099-12-31. Recebido: '${echo(value)}'.`,
  batchRateLimited: 'Limite de lotes atingido. Tente em 1 hora.',
  batchNotFound: 'Lote não encontrado.',
  batchIdInvalid: 'batchId inválido.',
  batchDescription: 'description deve ser texto de 1 a 140 caracteres.',
  batchSize: 'dueCharges deve ter de 1 a 500 cobranças.',
  batchItem: (index: number, message: string) => `dueCharges[${index}]: ${message}`,

  // /v1/static-qrcodes (ours, since 2026-11-29: docs/decisions.md "Static QR codes")
  staticQrCodeNotFound: 'QR code estático não encontrado.',
  staticQrCodeIdInvalid: 'staticQrCodeId inválido.',
  staticDescription: 'description deve ser texto de 1 a 37 caracteres (cabe no QR code com a chave Pix).',
  staticDescriptionRoom: (maxLength: number) => `description deve ter no máximo ${maxLength} caracteres nesta instalação (cabe no QR code com a chave Pix).`,
  staticListStatus: (value: unknown) => `status deve ser 'active' ou 'inactive'. Recebido: '${echo(value)}'.`,

  // /v1/payment-links (ours, since 2026-11-29: docs/decisions.md "Payment links")
  paymentLinkNotFound: 'Link de pagamento não encontrado.',
  paymentLinkIdInvalid: 'linkId inválido.',
  /** GET /v1/transactions?paymentLinkId= (the query names the field, the path its parameter). */
  paymentLinkIdQueryInvalid: 'paymentLinkId inválido.',
  paymentLinkDescription: 'description deve ser texto de 1 a 140 caracteres.',
  paymentLinkReusable: 'reusable deve ser true ou false.',
  paymentLinkExpiresInDays: 'expiresInDays deve ser inteiro de 1 a 365.',

  // /v1/recurrences (ours, since 2026-11-30: docs/decisions.md "Pix Automático")
  recurrenceNotFound: 'Recorrência não encontrada.',
  recurrenceIdInvalid: 'recurrenceId inválido.',
  recurrencePayer: 'payer é obrigatório (objeto com name e document).',
  recurrencePayerName: 'payer.name deve ser texto de 1 a 140 caracteres.',
  recurrencePayerDocumentMissing: 'payer.document.number e payer.document.type obrigatórios.',
  recurrencePayerDocumentType: (value: unknown) => `payer.document.type deve ser 'cpf' ou 'cnpj'. Recebido: '${echo(value)}'.`,
  recurrencePayerDocumentNumber: 'payer.document.number deve conter apenas dígitos, pontos, traços e barras.',
  recurrencePayerCpfLength: (digits: number) => `payer.document.number deve ter 11 dígitos para cpf. Recebido: ${digits} dígitos.`,
  recurrencePayerCnpjLength: (digits: number) => `payer.document.number deve ter 14 dígitos para cnpj. Recebido: ${digits} dígitos.`,
  recurrencePayerCpfInvalid: 'payer.document.number não é um CPF válido (dígito verificador incorreto).',
  recurrencePayerCnpjInvalid: 'payer.document.number não é um CNPJ válido (dígito verificador incorreto).',
  recurrenceContract: 'contract deve ser texto de 1 a 35 caracteres.',
  recurrenceObject: 'object deve ser texto de 1 a 35 caracteres.',
  recurrencePeriodicity: (value: unknown) =>
    `periodicity deve ser 'weekly', 'monthly', 'quarterly', 'half_yearly' ou 'yearly'. Recebido: '${echo(value)}'.`,
  recurrenceStartDate: (value: unknown) => `startDate deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  recurrenceStartTooEarly: (first: string) =>
    `startDate deve ser a partir de ${first} (o ciclo chega ao banco do pagador com ao menos 2 dias de antecedência).`,
  recurrenceStartTooFar: (last: string) => `startDate deve ser no máximo ${last}.`,
  recurrenceEndDate: (value: unknown) => `endDate deve ser uma data AAAA-MM-DD. Recebido: '${echo(value)}'.`,
  recurrenceEndBeforeStart: 'endDate deve ser igual ou posterior a startDate.',
  recurrenceAmountBoth: 'Envie amountCents (valor fixo) ou minimumAmountCents (valor variável), não os dois.',
  recurrenceMinimumAmount: 'minimumAmountCents deve ser inteiro ≥ 100 (valor em centavos).',
  recurrenceRetryPolicy: (value: unknown) => `retryPolicy deve ser 'none' ou 'three_in_seven_days'. Recebido: '${echo(value)}'.`,
  recurrenceConsent: 'consent é obrigatório: {"journey": "request", "qrcode" ou "qrcode_with_payment"}.',
  recurrenceJourney: (value: unknown) => `consent.journey deve ser 'request', 'qrcode' ou 'qrcode_with_payment'. Recebido: '${echo(value)}'.`,
  recurrencePayerAccount: 'consent.payerAccount deve ter ispb (8 caracteres), account (até 20) e, opcional, branch (até 4 dígitos).',
  recurrenceConsentExpiresInDays: 'consent.expiresInDays deve ser inteiro de 1 a 30.',
  recurrenceFirstPayment: 'consent.firstPaymentCents deve ser inteiro ≥ 100 (R$1,00 mínimo).',
  recurrenceConsentMissing: (field: string, journey: string) => `consent.${field} é obrigatório na jornada ${journey}.`,
  recurrenceConsentNotForJourney: (field: string, journey: string) => `consent.${field} não se aplica à jornada '${echo(journey)}'.`,
  recurrenceListStatus: (value: unknown) =>
    `status deve ser 'created', 'approved', 'rejected', 'expired' ou 'cancelled'. Recebido: '${echo(value)}'.`,
  recurrenceNotCancellable: (status: string) =>
    `Recorrência com status '${echo(status)}' não pode ser cancelada: apenas recorrências criadas ou aprovadas (created, approved).`,
  recurrencesUnavailable: 'Recorrências indisponíveis: o provedor PIX desta instalação não oferece Pix Automático.',
  recurrenceCycleRefused: (code: string) => `Recusada pelo banco do pagador (código ${code}).`,
  cycleFixedAmount: 'Recorrência de valor fixo: seus ciclos são enviados automaticamente.',
  cycleNotApproved: (status: string) => `Recorrência com status '${echo(status)}' não envia ciclos: apenas recorrências aprovadas (approved).`,
  cycleNoneLeft: 'Não há próximo ciclo: a recorrência chegou à data final.',
  cycleTooEarly: (due: string, opens: string) => `O próximo ciclo (vencimento ${due}) só pode ser enviado a partir de ${opens}.`,
  cycleAboveMaximum: (cents: number) => `Valor acima do máximo aceito pelo pagador (${formatBrl(cents)}).`,
  cycleBelowMinimum: (cents: number) => `Valor abaixo do mínimo da recorrência (${formatBrl(cents)}).`,

  // 400, POST /v1/pix (contract)
  chargeAmount: 'amountCents deve ser inteiro ≥ 100 (R$1,00 mínimo).',
  customerName: 'customer.name obrigatório.',
  customerDocumentMissing: 'customer.document.number e customer.document.type obrigatórios.',
  customerDocumentTypeMissing: 'customer.document.type é obrigatório.',
  customerDocumentType: (value: unknown) =>
    `customer.document.type deve ser 'cpf' ou 'cnpj'. Recebido: '${echo(value)}'.`,
  customerCpfLength: (digits: number) =>
    `customer.document.number deve ter 11 dígitos para cpf. Recebido: ${digits} dígitos.`,
  customerCnpjLength: (digits: number) =>
    `customer.document.number deve ter 14 dígitos para cnpj. Recebido: ${digits} dígitos.`,
  customerCpfInvalid: 'customer.document.number não é um CPF válido (dígito verificador incorreto).',
  customerCnpjInvalid: 'customer.document.number não é um CNPJ válido (dígito verificador incorreto).',
  customerEmail: 'customer.email é obrigatório e deve ser válido.',
  customerPhone: 'customer.phone é obrigatório (DDD + número, 10 ou 11 dígitos).',
  // Contract gives both variants. Decision (docs/decisions.md): the plain texts for the account's configured
  // amount range, the "permitido" texts for the smallest amount that covers a fixed fee and for the platform
  // ceiling per charge, which no account range lifts.
  amountBelowMinimum: (cents: number) => `Valor abaixo do mínimo (${formatBrl(cents)}).`,
  amountBelowPermitted: (cents: number) => `Valor abaixo do mínimo permitido (${formatBrl(cents)}).`,
  amountAboveMaximum: (cents: number) => `Valor acima do máximo (${formatBrl(cents)}).`,
  amountAbovePermitted: (cents: number) => `Valor acima do máximo permitido (${formatBrl(cents)}).`,

  // 400, POST /v1/pix (ours: fields the contract bounds without giving a message)
  customerMissing: 'customer é obrigatório (objeto com name, email, phone e document).',
  customerNameTooLong: 'customer.name deve ter no máximo 100 caracteres.',
  customerDocumentNumber: 'customer.document.number deve conter apenas dígitos, pontos, traços e barras.',
  expiresInDays: (value: unknown) => `expiresInDays deve ser inteiro entre 1 e 30. Recebido: ${echo(value)}.`,
  externalRef: 'externalRef deve ser texto de 1 a 100 caracteres.',

  // 400, POST /v1/withdraw (contract, with our continuations where the contract elides it)
  withdrawAmount: 'amountCents deve ser inteiro ≥ 100 (valor em centavos; R$1,00 mínimo).',
  withdrawAboveMaximum: (cents: number) => `Saque acima do máximo por transação (${formatBrl(cents)}).`,
  pixKeyRequired: 'pixKey obrigatória.',
  pixKeyType: (value: unknown) =>
    `pixKeyType deve ser 'cpf', 'cnpj', 'email', 'phone' ou 'evp'. Recebido: '${echo(value)}'.`,
  thirdPartyKeyNeedsRecipient: 'Saque para chaves email/telefone/aleatória exige destinatário autorizado.',
  recipientIdInvalid: 'recipientId inválido.',
  recipientKeyTypeMismatch: 'Tipo de chave (CPF/CNPJ) não bate com o tipo do documento do destinatário.',
  // ours
  pixKeyTooLong: 'pixKey deve ter no máximo 150 caracteres.',
  pixKeyInvalid: (keyType: string) => `pixKey inválida para o tipo '${echo(keyType)}'.`,
  // refusedReason texts of withdrawals refused by a cap (status failed, refusedCode *_LIMIT_EXCEEDED)
  // The refusal does not keep the externalRef (docs/decisions.md): the same request can be sent again.
  dailyCapReason: (cents: number) =>
    `Limite diário de saques da conta atingido (${formatBrl(cents)}). O externalRef não foi consumido: reenvie quando houver limite.`,
  monthlyCapReason: (cents: number) =>
    `Limite mensal de saques da conta atingido (${formatBrl(cents)}). O externalRef não foi consumido: reenvie quando houver limite.`,
  description: 'description deve ser texto de no máximo 200 caracteres.',

  // refusedReason texts of withdrawals refused after creation (ours; refusedCode is the stable part)
  providerRefusedReason: 'O provedor recusou o saque; o valor não foi debitado.',
  notReceivedReason: 'O saque não chegou ao provedor; o valor não foi debitado.',
  notSentReturnedReason: 'O saque não chegou ao provedor; o valor foi devolvido ao saldo.',
  insufficientAtApprovalReason: 'Saldo insuficiente no momento da aprovação.',
  rejectedByReviewReason: `Saque recusado na análise da equipe ${SERVICE_NAME}.`,
  cancelledByRequestReason: 'Saque cancelado a pedido, antes do envio.',
  sandboxRejectedReason: 'Recusado pelo provedor simulado (sandbox do painel).',
  resolvedNotPaidReason: `O provedor não concluiu o saque (confirmado pela equipe ${SERVICE_NAME}); o valor foi devolvido ao saldo.`,

  // 400, POST /v1/recipients (contract)
  legalName: 'legalName é obrigatório (mínimo 2 caracteres).',
  recipientCpfLength: (digits: number) => `document deve ter 11 dígitos para cpf. Recebido: ${digits}.`,
  recipientKeyNotDocument: 'Chave PIX (CPF/CNPJ) não corresponde ao documento informado.',
  // ours
  recipientCnpjLength: (digits: number) => `document deve ter 14 dígitos para cnpj. Recebido: ${digits}.`,
  legalNameTooLong: 'legalName deve ter no máximo 120 caracteres.',
  recipientDocumentRequired: 'document é obrigatório.',
  recipientDocumentCharacters: 'document deve conter apenas dígitos, pontos, traços e barras.',
  recipientDocumentType: (value: unknown) => `documentType deve ser 'cpf' ou 'cnpj'. Recebido: '${echo(value)}'.`,
  recipientCpfInvalid: 'document não é um CPF válido (dígito verificador incorreto).',
  recipientCnpjInvalid: 'document não é um CNPJ válido (dígito verificador incorreto).',
  label: 'label deve ser texto de no máximo 80 caracteres.',
  // `note` of a registration (201/200): the contract asks for a text saying it does not enable withdrawals.
  recipientNotePending: `Cadastro recebido para análise de compliance da ${SERVICE_NAME}. Ele não habilita saques até ser aprovado.`,
  recipientNoteActive: 'Destinatário já aprovado; este cadastro não altera a aprovação.',
  recipientNoteUpdated: `Cadastro em análise atualizado com os dados enviados; a análise de compliance da ${SERVICE_NAME} considera os novos dados. Ele não habilita saques até ser aprovado.`,

  // 400, reads (contract)
  transactionIdInvalid: 'transactionId inválido.',
  // 400, GET /v1/transactions (ours: the contract leaves invalid values "not shown")
  listType: (value: unknown) => `type deve ser 'pix_in' ou 'withdrawal'. Recebido: '${echo(value)}'.`,
  listLimit: (value: unknown) => `limit deve ser inteiro entre 1 e 100. Recebido: '${echo(value)}'.`,
  // GET /v1/transactions and GET /v1/balance/entries, since 2026-11-26 (ours: docs/decisions.md "Statements and listing")
  cursorInvalid: 'cursor inválido: use o nextCursor da página anterior.',
  createdFrom: (value: unknown) => `createdFrom deve ser inteiro (Unix em milissegundos). Recebido: '${echo(value)}'.`,
  createdTo: (value: unknown) => `createdTo deve ser inteiro (Unix em milissegundos). Recebido: '${echo(value)}'.`,
  createdRangeEmpty: 'createdTo deve ser maior que createdFrom.',
  listStatus: (value: unknown) =>
    `status inválido. Use um de: pending, processing, pending_approval, paid, failed, failed_unknown, cancelled, expired, refunded, partially_refunded. Recebido: '${echo(value)}'.`,
  // 400, GET /v1/transactions/{id}/qrcode (ours: added 2026-11-23)
  qrFormat: (value: unknown) => `format deve ser 'png' ou 'svg'. Recebido: '${echo(value)}'.`,
  qrSize: (value: unknown) => `size deve ser inteiro entre 128 e 1024. Recebido: '${echo(value)}'.`,

  // The dashboard (ours): sign-in, sessions, two-factor, users, API keys, sandbox
  invalidCredentials: 'E-mail ou senha incorretos.',
  // Sign-in back-off (issue 38): which counter made the attempt wait, and for how long (whole minutes, rounded up)
  signInThrottled: (reason: string, retryAfterMs = 60_000) => {
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    const wait = `Tente de novo em ${minutes === 1 ? '1 minuto' : `${minutes} minutos`}`;
    switch (reason) {
      case 'account':
        return `Muitas tentativas de acesso com este e-mail. ${wait}. Se a conta é sua: no navegador em que você já entrou, o acesso continua normal; ou redefina a senha em “Esqueci a senha”.`;
      case 'device':
        return `Muitas senhas erradas neste navegador. ${wait} ou redefina a senha em “Esqueci a senha”.`;
      case 'address':
        return `Muitas tentativas de acesso a partir desta rede. ${wait}.`;
      case 'secondFactor':
        return `Muitos códigos errados. ${wait}; confira o horário do celular ou use um código de recuperação.`;
      case 'passwordChange':
        return `Muitas tentativas com a senha atual errada nesta sessão. ${wait}.`;
      default:
        return `Muitas tentativas de acesso. ${wait}.`;
    }
  },
  signUpThrottled: 'Muitos cadastros em pouco tempo. Aguarde até 1 hora e tente de novo.',
  passwordResetThrottled: 'Muitos pedidos de redefinição de senha em pouco tempo. Aguarde até 1 hora e tente de novo.',
  sessionRequired: 'Sua sessão expirou ou não existe. Entre novamente.',
  secondFactorRequired: 'Informe o código do aplicativo autenticador para continuar.',
  csrfTokenInvalid: 'Token de segurança (CSRF) ausente ou inválido. Recarregue a página e tente de novo.',
  invalidTotpCode: 'Código inválido, expirado ou já usado. Use o código atual do aplicativo autenticador.',
  // Dashboard CSV exports (ours, since 2026-11-26)
  exportFromInvalid: 'Data inicial inválida: use AAAA-MM-DD.',
  exportToInvalid: 'Data final inválida: use AAAA-MM-DD.',
  exportPeriodInvalid: 'Período inválido: a data final deve ser igual ou posterior à inicial, em até 366 dias.',
  invalidRecoveryCode: 'Código de recuperação inválido ou já usado.',
  totpNotEnabled: 'Ative a verificação em duas etapas (aplicativo autenticador) antes de continuar.',
  totpAlreadyEnabled: 'A verificação em duas etapas já está ativa.',
  weakPassword: 'A senha deve ter de 10 a 128 caracteres e ser diferente do e-mail.',
  // Account security (issue 22, ours): password strength and change, sessions, team two-factor
  guessablePassword: (warning: string | undefined, suggestion: string | undefined) =>
    ['Senha fácil de adivinhar: use uma frase de três ou quatro palavras ou uma senha mais longa e menos previsível.', warning, suggestion]
      .filter((part): part is string => Boolean(part))
      .join(' '),
  currentPasswordWrong: 'Senha atual incorreta.',
  passwordUnchanged: 'A nova senha deve ser diferente da atual.',
  operatorPasswordChangeRequired: 'Troque a senha temporária antes de continuar.',
  operatorTemporaryPasswordExpired:
    'A senha temporária expirou (vale 24 horas). Peça uma nova a um administrador (console, Operadores, Redefinir acesso); se você é o primeiro operador, reinicie o servidor com npm start, que imprime uma nova.',
  teamTwoFactorRequired: 'Esta conta exige verificação em duas etapas de toda a equipe. Ative-a em Segurança antes de continuar.',
  teamTwoFactorNeedsOwnTotp: 'Ative a sua própria verificação em duas etapas antes de exigi-la da equipe.',
  sessionNotFound: 'Sessão não encontrada.',
  invalidEmailLink: 'Link inválido, expirado ou já usado. Peça um novo.',
  // The merchant's city (issue 38, ours): a municipality of the IBGE's list in the chosen UF
  merchantStateInvalid: 'Estado (UF): escolha um dos 27 estados.',
  merchantCityUnknown: (typed: string, state = '', suggestions: readonly string[] = []) =>
    [
      typed === '' ? 'Cidade: campo obrigatório.' : `Cidade: não encontramos “${typed}” entre os municípios de ${state}. Confira a grafia e o estado.`,
      suggestions.length === 0 ? '' : `Você quis dizer ${suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(', ')} ou ${suggestions[suggestions.length - 1]}`}?`,
    ]
      .filter(Boolean)
      .join(' '),
  emailAlreadyRegistered: 'Este e-mail já é de um usuário desta conta.',
  emailNotVerified: 'Confirme seu e-mail antes de gerar chaves de API.',
  kycNotApproved: 'A conta ainda não foi aprovada (KYC). Chaves de API são liberadas após a aprovação.',
  roleNotAllowed: 'Seu perfil de acesso não permite esta ação.',
  userNotFound: 'Usuário não encontrado.',
  lastOwner: 'A conta precisa de pelo menos um proprietário ativo.',
  sandboxUnavailable: 'Ações de sandbox não existem em produção.',
  invalidResponsibleCpf: 'CPF do responsável inválido (dígito verificador incorreto ou tamanho errado).',
  invalidCompanyCnpj: 'CNPJ da empresa inválido (dígito verificador incorreto ou tamanho errado).',
  apiKeyNotFound: 'Chave de API não encontrada.',
  webhookUrlNotFound: 'URL de webhook não encontrada.',
  eventNotFound: 'Evento não encontrado.',
  webhookUrlLimitReached: (max: number) => `Limite de ${max} URLs de webhook atingido. Exclua uma para cadastrar outra.`,
  unknownEventFilter: (entry: string) => `Evento ou categoria desconhecido: '${echo(entry)}'.`,
  unsafeWebhookUrl: {
    invalid: 'URL inválida: informe um endereço absoluto (https://…).',
    notHttps: 'Em produção a URL do webhook deve usar HTTPS.',
    unresolvable: 'O endereço da URL não foi encontrado (DNS).',
    privateAddress: 'A URL aponta para um endereço privado, local ou reservado; use um endereço público.',
  },
  noWebhookUrlForEvent: 'Nenhuma URL de webhook ativa recebe este evento.',
  resendQuotaExhausted: (limit: number) => `Limite de ${limit} reenvios manuais por hora atingido. Tente na próxima hora.`,
  chargeNotFound: 'Cobrança não encontrada.',
  chargeNotPayable: (status: string) => `A cobrança não pode ser paga: situação '${status}'.`,
  chargeNotPending: (status: string) => `A cobrança não está pendente: situação '${status}'.`,
  withdrawalNotFound: 'Saque não encontrado.',
  refundNotFound: 'Devolução não encontrada.',
  providerActionRefused: (status: string) => `O provedor não aceita esta ação neste saque (situação '${status}').`,
  // MED infractions (the dashboard's defence)
  infractionNotFound: 'Infração MED não encontrada.',
  infractionClosed: (status: string) => `Esta infração MED não aceita mais defesa: situação '${status}'.`,
  infractionAlreadyDefended: 'A defesa desta infração MED já foi enviada ao provedor.',
  infractionDeadlinePassed: 'O prazo para a defesa desta infração MED terminou.',
  infractionDefenceFailed: 'Não foi possível enviar a defesa ao provedor agora. Nada foi registrado; tente novamente.',
  refundActionRefused: (status: string) => `O provedor não aceita esta ação nesta devolução (situação '${status}').`,

  // The dashboard's form validation (ours): `<label>` is the field's Portuguese name
  formRequired: (label: string) => `${label}: campo obrigatório.`,
  formEmail: (label: string) => `${label}: informe um endereço válido.`,
  formMinLength: (label: string, min: string) => `${label}: mínimo de ${min} caracteres.`,
  formMaxLength: (label: string, max: string) => `${label}: máximo de ${max} caracteres.`,
  formInvalid: (label: string) => `${label}: valor inválido.`,
  formNothingToChange: 'Informe ao menos um campo para alterar.',
  formOneOfFields: 'Informe apenas um dos campos.',

  // Transport-level errors (ours)
  malformedJson: 'JSON malformado no corpo da requisição.',
  unstorableText: 'O corpo da requisição contém caracteres não permitidos (NUL).',
  bodyNotObject: 'O corpo da requisição deve ser um objeto JSON.',
  unsupportedMediaType: 'Content-Type deve ser application/json.',
  payloadTooLarge: 'Corpo da requisição excede o tamanho máximo (64 KB).',
  unknownField: (path: string) => `Campo não permitido: '${echo(path)}'.`,
  unknownQueryParameter: (name: string) => `Parâmetro de consulta não permitido: '${echo(name)}'.`,
  invalidField: (path: string) => `Campo inválido: '${echo(path)}'.`,
  routeNotFound: 'Rota não encontrada.',
  methodNotAllowed: (allowed: string) => `Método não permitido nesta rota. Permitidos: ${allowed}.`,
  notAcceptable: 'Esta API responde apenas application/json.',
  internalError: 'Erro interno. Tente novamente; se persistir, contate o suporte.',
} as const;
