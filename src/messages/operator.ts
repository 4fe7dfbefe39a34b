/**
 * The back office's texts (`/admin/v1`: the service-team console and the admin CLI), in Brazilian Portuguese,
 * in one place, keyed by name (issue 22, defect 11). Merchant-facing texts live in `./merchant.ts`.
 * Functions build texts that carry a value; identifiers an operator needs (ids, status and role values) stay as
 * the API spells them. Validation (a field's shape, documents, ranges) answers with the field's label in the
 * console: `./fields.ts`.
 */

export const operatorMessages = {
  // Authentication and transport
  operatorTokenInvalid: 'Token de operador ausente ou inválido.',
  malformedJson: 'JSON malformado no corpo da requisição.',
  unstorableText: 'A requisição contém caracteres que não podem ser gravados (NUL).',
  payloadTooLarge: 'Corpo da requisição excede o tamanho máximo (64 KB).',
  unsupportedMediaType: 'Content-Type deve ser application/json.',
  routeNotFound: 'Rota não encontrada.',
  methodNotAllowed: (allowed: string) => `Método não permitido nesta rota. Permitidos: ${allowed}.`,
  notAcceptable: 'Esta API responde apenas application/json.',
  internalError: 'Erro interno. Tente novamente; se persistir, consulte o log do servidor.',

  // Accounts and API keys
  accountNotFound: 'Conta não encontrada.',
  // The console's accounts list (issue 22).
  invalidAccountListQuery: {
    kycStatus: "Situação do KYC: escolha uma das opções da lista ('pending', 'approved', 'rejected' ou 'all').",
    limit: 'Limite inválido: informe um número inteiro de 1 a 100.',
    cursor: 'Página: a página pedida não existe mais; volte à primeira página.',
    emailVerified: "E-mail confirmado: escolha uma das opções da lista ('true' ou 'false').",
  },
  apiKeyNotFound: 'Chave de API não encontrada.',
  apiKeysNeedApprovedKyc: 'Chaves de API exigem KYC aprovado.',

  // Transactions, charges and the sandbox
  transactionNotFound: 'Transação não encontrada.',
  chargeNotFound: 'Cobrança não encontrada.',
  chargeNotPayable: (status: string) => `A cobrança não pode ser paga: situação '${status}'.`,
  recurrenceSandboxRefused: (status: string) => `O banco do pagador simulado recusou a ação: situação '${status}'.`,
  recurrenceCycleNotFound: 'Ciclo de recorrência não encontrado.',
  chargeNotPending: (status: string) => `A cobrança não está pendente: situação '${status}'.`,
  chargeNotRefundable: (status: string) => `A cobrança não pode ser devolvida: situação '${status}'.`,
  refundExceedsCharge: 'A devolução excede o valor da cobrança.',
  refundNotCovered: 'O saldo disponível para saque não cobre a devolução.',
  simulatedProviderRequired: 'Ações de sandbox no provedor exigem o PSP simulado ou o provedor falso.',
  unmatchedPixNotFound: 'Pix não encontrado entre os não conciliados.',
  unmatchedPixAlreadyResolved: 'Este Pix já foi resolvido.',

  // Withdrawals
  withdrawalNotFound: 'Saque não encontrado.',
  refundNotFound: 'Devolução não encontrada.',
  withdrawalNotPendingApproval: (status: string) => `O saque não está aguardando aprovação: situação '${status}'.`,
  providerActionRefused: (status: string) => `O provedor (PSP) não aceita esta ação neste saque (situação '${status}').`,
  refundActionRefused: (status: string) => `O provedor (PSP) não aceita esta ação nesta devolução (situação '${status}').`,
  withdrawalNotIndeterminate: (status: string) => `Só um saque em failed_unknown pode ser resolvido: situação '${status}'.`,
  withdrawalNotOverdue: (overdueAt: string) =>
    `A conciliação tem até ${overdueAt} (24 h em failed_unknown) para liquidar este saque; resolva-o depois disso.`,
  resolutionNeedsSettlement: 'Para resolver como pago, informe endToEndId e beneficiaryBankAccount do extrato do PSP.',

  // Recipients
  recipientNotFound: 'Destinatário não encontrado.',
  // `expected` may come as words ('pending review'): shown as the status value the API spells (pending_review).
  recipientInWrongStatus: (expected: string, status: string) =>
    `O destinatário não está em '${expected.replaceAll(' ', '_')}': situação '${status}'.`,

  // Holds
  holdNotFound: 'Retenção não encontrada.',
  holdNeedsPaidCharge: (type: string, status: string) =>
    `Retenções sobre uma transação exigem uma cobrança paga: a transação é do tipo '${type}' e está em '${status}'.`,
  holdExceedsCharge: 'A retenção sobre uma cobrança não pode exceder o valor dela.',
  holdAlreadyReleased: 'A retenção já foi liberada.',
  holdNotOnCharge: 'A retenção não é sobre uma cobrança.',
  chargeNotChargeable: 'Esta cobrança não pode receber chargeback.',
  chargebackExceedsHold: 'O chargeback excede a retenção ou o valor da cobrança.',
  chargebackNotCovered: 'O saldo disponível não cobre o chargeback.',
  chargebackExceedsRefundable: (remaining: string) =>
    `O chargeback excede o que a cobrança ainda pode devolver: restam ${remaining}, contando as devoluções em andamento.`,
  chargebackInProgress: 'Um chargeback desta retenção já está em andamento no provedor.',
  chargebackNeedsProviderDevolucao:
    'O provedor ainda não fez uma devolução MED desta cobrança: no provedor real, o chargeback é registrado a partir da devolução que ele fez.',

  // MED infractions and the reconciliation with the provider
  infractionNotFound: 'Infração MED não encontrada.',
  infractionClosed: (status: string) => `Esta infração MED não aceita mais defesa: situação '${status}'.`,
  infractionAlreadyDefended: 'A defesa desta infração MED já foi enviada ao provedor.',
  infractionDeadlinePassed: 'O prazo para a defesa desta infração MED terminou.',
  infractionDefenceFailed: 'Não foi possível enviar a defesa ao provedor agora. Nada foi registrado; tente novamente.',
  providerUnreachable: 'O provedor (PSP) não respondeu. Nada mudou; tente novamente.',
  breakNotFound: 'Divergência de conciliação não encontrada.',
  breakAlreadyResolved: 'Esta divergência já foi resolvida.',
  breakNeedsSettlement: 'Esta divergência envolve dinheiro: escolha quem o assume (write_off, charge_merchant ou, para saldo, book_difference).',
  breakSettlementRefused:
    'Não foi possível lançar este acerto: o saldo do lojista não o cobre, a divergência não tem lojista, ou book_difference só serve para divergência de saldo.',
  reconciliationDayInvalid: 'Dia: informe um dia já começado em São Paulo, no formato AAAA-MM-DD.',

  // Webhooks
  unknownEventFilter: (entry: string) => `Evento ou categoria desconhecido: '${entry}'.`,
  unsafeUrl: {
    invalid: 'URL do webhook inválida: informe um endereço absoluto (https://…).',
    notHttps: 'A URL do webhook deve usar HTTPS.',
    unresolvable: 'O endereço da URL do webhook não foi encontrado (DNS).',
    privateAddress: 'A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).',
  },
  webhookUrlLimitReached: (max: number) => `Uma conta pode ter no máximo ${max} URLs de webhook.`,
  webhookUrlNotFound: 'URL de webhook não encontrada.',
  eventNotFound: 'Evento não encontrado.',
  noWebhookUrlForEvent: 'Nenhuma URL de webhook ativa recebe este evento.',
  resendQuotaExhausted: (limit: number) => `Limite de reenvios manuais atingido: ${limit} por hora por conta.`,

  // The console: operators' sign-in, roles, sessions
  operatorInvalidCredentials: 'E-mail ou senha incorretos.',
  operatorSessionRequired: 'Sua sessão expirou ou não existe. Entre novamente.',
  operatorSecondFactorRequired: 'Informe o código do aplicativo autenticador (ou cadastre um) para continuar.',
  operatorInvalidTotpCode: 'Código inválido, expirado ou já usado. Use o código atual do aplicativo autenticador.',
  operatorRoleNotAllowed: (needed: readonly string[]) =>
    `Seus papéis não permitem esta ação (ela exige um destes: ${needed.join(', ')}).`,
  operatorNotFound: 'Operador não encontrado.',
  operatorEmailTaken: 'Já existe um operador com este e-mail.',
  operatorSignInThrottled: 'Muitas tentativas de acesso. Aguarde até 15 minutos e tente de novo.',
  operatorCannotChangeSelf: 'Você não pode desativar a si mesmo nem remover o seu próprio papel de admin.',
  operatorCsrfTokenInvalid: 'Token de segurança (CSRF) ausente ou inválido. Recarregue a página e tente de novo.',
} as const;
