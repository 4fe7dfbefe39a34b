/**
 * The audit log's action names in Portuguese: every name the server records (grep `action: '` in src/),
 * including the sign-ins and merchant actions of issue 22. An unknown name is shown readably, never raw.
 */
export const AUDIT_ACTION_LABEL: Record<string, string> = {
  'account.create': 'Conta criada',
  'account.update': 'Conta alterada',
  'account.team_two_factor_changed': 'Exigência de duas etapas para a equipe alterada',
  'account.city_changed': 'Lojista alterou a cidade do Pix',
  'api_key.created': 'Lojista criou uma chave de API',
  'api_key.revoked': 'Lojista revogou uma chave de API',
  'apiKey.create': 'Chave de API criada',
  'apiKey.revoke': 'Chave de API revogada',
  'event.resend': 'Evento reenviado',
  'hold.place': 'Bloqueio de saldo criado',
  'hold.release': 'Bloqueio de saldo liberado',
  'hold.chargeback': 'Bloqueio convertido em estorno',
  'infractions.follow': 'Infrações MED consultadas no provedor',
  'infraction.defend': 'Defesa de infração MED enviada',
  'infraction.defended': 'Lojista enviou a defesa de uma infração MED',
  'operator.create': 'Operador criado',
  'operator.update': 'Operador alterado',
  'operator.enrolTotp': 'Operador configurou a verificação em duas etapas',
  'operator.resetCredentials': 'Acesso do operador redefinido',
  'operator.signed_in': 'Operador entrou no console',
  'operator.sign_in_failed': 'Tentativa de entrada no console recusada',
  'operator.signed_out': 'Operador saiu do console',
  'operator.password_changed': 'Operador trocou a senha',
  'provider.unmatched_pix.resolve': 'Pix sem cobrança resolvido',
  'reconciliation.run': 'Conciliação com o provedor executada',
  'reconciliation.break.resolve': 'Divergência da conciliação resolvida',
  'recipient.approve': 'Destinatário aprovado',
  'recipient.registered': 'Lojista cadastrou um destinatário',
  'refund.requested': 'Lojista pediu uma devolução',
  'recipient.reject': 'Destinatário recusado',
  'recipient.deactivate': 'Destinatário desativado',
  'sandbox.charge.pay': 'Sandbox: cobrança paga',
  'sandbox.charge.cancel': 'Sandbox: cobrança cancelada',
  'sandbox.charge.expire': 'Sandbox: cobrança expirada',
  'sandbox.charge.fail': 'Sandbox: cobrança com falha',
  'sandbox.charge.refund': 'Sandbox: devolução de cobrança',
  'sandbox.staticqrcode.pay': 'Sandbox: QR code estático pago',
  'sandbox.recurrence.consent': 'Sandbox: pagador respondeu à recorrência',
  'sandbox.recurrence.cancel': 'Sandbox: pagador cancelou a recorrência',
  'sandbox.recurrence.debit': 'Sandbox: banco do pagador debitou ou recusou o ciclo',
  'sandbox.recurrence.cycle.cancel': 'Sandbox: pagador cancelou o ciclo',
  'sandbox.recurrences.run': 'Sandbox: tarefas de recorrência executadas',
  'sandbox.refund.settle': 'Sandbox: devolução liquidada',
  'sandbox.refund.reject': 'Sandbox: devolução recusada',
  'sandbox.withdrawal.settle': 'Sandbox: saque liquidado',
  'sandbox.withdrawal.reject': 'Sandbox: saque recusado pelo PSP',
  'sandbox.withdrawal.return': 'Sandbox: saque devolvido',
  'sandbox.provider.queue': 'Sandbox: resultado do PSP programado',
  'sandbox.provider.clear': 'Sandbox: resultados do PSP limpos',
  'sandbox.reconcile': 'Sandbox: conciliação executada',
  'sandbox.infraction.open': 'Sandbox: infração MED aberta',
  'sandbox.infraction.block': 'Sandbox: valor da infração MED bloqueado',
  'sandbox.infraction.close': 'Sandbox: infração MED analisada',
  'user.invited': 'Usuário convidado para a equipe',
  'user.removed': 'Usuário removido da equipe',
  'user.role_changed': 'Papel do usuário alterado',
  'user.signed_in': 'Usuário entrou no painel',
  'user.sign_in_failed': 'Tentativa de entrada no painel recusada',
  'user.signed_out': 'Usuário saiu do painel',
  'user.password_changed': 'Usuário trocou a senha',
  'user.password_reset': 'Usuário redefiniu a senha',
  'user.sessions_revoked': 'Usuário encerrou todas as sessões',
  'webhook.create': 'URL de webhook cadastrada',
  'webhook.created': 'Lojista cadastrou uma URL de webhook',
  'webhook.updated': 'Lojista alterou uma URL de webhook',
  'webhook.deleted': 'Lojista removeu uma URL de webhook',
  'webhook.secret_rotated': 'Lojista trocou o segredo de um webhook',
  'webhook.rotateSecret': 'Segredo de webhook trocado',
  'webhook.test': 'Evento de teste enviado ao webhook',
  'webhook.update': 'URL de webhook alterada',
  'webhook.delete': 'URL de webhook removida',
  'webhooks.dispatch': 'Entregas de webhook disparadas',
  'withdrawal.approve': 'Saque aprovado',
  'withdrawal.requested': 'Lojista pediu um saque',
  'withdrawal.reject': 'Saque recusado',
  'withdrawal.cancel': 'Saque cancelado',
  'withdrawal.resolve': 'Saque resolvido (conciliação)',
};

const SUBJECT: Record<string, string> = {
  account: 'Conta',
  apiKey: 'Chave de API',
  api_key: 'Chave de API',
  charge: 'Cobrança',
  event: 'Evento',
  hold: 'Bloqueio',
  infraction: 'Infração MED',
  infractions: 'Infrações MED',
  operator: 'Operador',
  provider: 'PSP',
  recipient: 'Destinatário',
  reconciliation: 'Conciliação',
  refund: 'Devolução',
  sandbox: 'Sandbox',
  session: 'Sessão',
  team: 'Equipe',
  user: 'Usuário',
  webhook: 'Webhook',
  webhooks: 'Webhooks',
  withdrawal: 'Saque',
};

/** An action's Portuguese label; an unknown one as its subject and words (`user.totp_enabled` → "Usuário: totp enabled"). */
export function auditActionLabel(action: string): string {
  const known = AUDIT_ACTION_LABEL[action];
  if (known) return known;
  const [subject = '', ...rest] = action.split('.');
  const words = rest
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .toLowerCase()
    .trim();
  const head = SUBJECT[subject] ?? subject.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return words ? `${head}: ${words}` : head;
}

/** The kind of record an entry is about, in Portuguese (`withdrawal` → "Saque"). */
export function auditTargetLabel(type: string): string {
  return SUBJECT[type] ?? ({ transaction: 'Transação', endpoint: 'Webhook', pix: 'Pix recebido', worker: 'Rotina', unmatched_pix: 'Pix sem cobrança', static_qrcode: 'QR code estático' } as Record<string, string>)[type] ?? type.replace(/[_.-]+/g, ' ');
}

/** Who acted, in Portuguese. */
export function actorKindLabel(type: string): string {
  return ({ operator: 'operador', automation: 'token de automação', system: 'sistema', user: 'usuário do painel' } as Record<string, string>)[type] ?? type;
}
