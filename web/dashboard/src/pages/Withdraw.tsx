import { useState, type ReactNode } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDocument, statusLabel } from '../../../shared/format.ts';
import { brlInWords, parseBrl } from '../../../shared/money.ts';
import { pixKeyInput } from '../../../shared/phone.tsx';
import { ActionForm, Field, Money, MoneyField, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';
import { PIX_KEY_TYPES } from './Recipients.tsx';

type Request = Schemas['DashboardWithdrawalRequest'];
type Outcome = { ok: boolean; transactionId: string; text: ReactNode; state?: string };

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot pay twice. */
const newReference = () => `painel-${crypto.randomUUID()}`;

/** The account's withdrawal fee for an amount: fixed + round_half_up(amount × bps / 10000), as the contract states it. */
function withdrawalFee(account: Schemas['DashboardAccount'], amountCents: number): number {
  return account.fees.withdrawalFixedCents + Math.round((amountCents * account.fees.withdrawalBps) / 10_000);
}

/**
 * A withdrawal from the dashboard: POST /v1/withdraw's fields plus the current code of the authenticator app.
 * Each filled form carries its own externalRef, so a retry returns the original withdrawal (200) instead of a
 * second one. The amount is typed the Brazilian way (`1.234` is R$ 1.234,00) and confirmed formatted and in
 * words, with the balance it would leave from, before it is sent.
 */
export function WithdrawPage({ session }: { session: Session }) {
  const [form, setForm] = useState({ amount: '', pixKeyType: 'cpf', pixKey: '', description: '', recipientId: '', totpCode: '' });
  const [reference, setReference] = useState(newReference);
  const [confirming, setConfirming] = useState<number>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [outcome, setOutcome] = useState<Outcome>();
  const recipientsQuery = $api.useQuery('get', '/dashboard/api/v1/recipients');
  const overviewQuery = $api.useQuery('get', '/dashboard/api/v1/overview');
  const withdrawMutation = $api.useMutation('post', '/dashboard/api/v1/withdrawals');
  const invalidate = useInvalidate();
  const recipients = (recipientsQuery.data?.recipients ?? []).filter((recipient) => recipient.status === 'active');
  const withdrawable = overviewQuery.data?.balance.withdrawableCents;

  if (!may(session, 'createDashboardWithdrawal')) {
    return (
      <>
        <h1>Saques</h1>
        <p className="warning">Saques pelo painel são feitos pelo proprietário ou por administradores da conta.</p>
      </>
    );
  }
  if (!session.user.twoFactorEnabled) {
    return (
      <>
        <h1>Saques</h1>
        <p className="warning">
          Saques pelo painel exigem a verificação em duas etapas. <a href="#/seguranca">Ative-a em Segurança</a>.
        </p>
      </>
    );
  }
  const typedCents = form.amount.trim() === '' ? undefined : parseBrl(form.amount);
  const fee = typedCents === undefined ? undefined : withdrawalFee(session.account, typedCents);
  const total = typedCents === undefined || fee === undefined ? undefined : typedCents + fee;
  const uncovered = total !== undefined && withdrawable !== undefined && total > withdrawable;
  const change = (patch: Partial<typeof form>) => {
    setConfirming(undefined);
    setForm({ ...form, ...patch });
  };
  return (
    <>
      <h1>Saques</h1>
      <p className="muted">
        O mesmo serviço de POST /v1/withdraw (regras, limites, mensagens e eventos), com o código do aplicativo autenticador. Sem destinatário, o saque vai
        para uma chave do titular da conta.
      </p>
      {withdrawable !== undefined ? (
        <p data-testid="withdrawable">
          Disponível para saque agora: <Money cents={withdrawable} />
        </p>
      ) : null}
      {outcome ? (
        <div role="status" className={outcome.ok ? 'notice' : 'warning'}>
          {outcome.text} <a href={`#/transacoes/${outcome.transactionId}`}>{outcome.transactionId}</a>
          {outcome.state ? (
            <>
              {' '}
              <Status value={outcome.state} label={statusLabel(outcome.state)} />
            </>
          ) : null}
        </div>
      ) : null}
      <div
        onKeyDown={(event) => {
          if (event.key === 'Escape' && confirming !== undefined) setConfirming(undefined);
        }}
      >
        <ActionForm
          label={confirming === undefined ? 'Sacar' : `Confirmar saque de ${formatBrl(confirming)}`}
          fields={['amountCents', 'pixKey', 'pixKeyType', 'description', 'recipientId', 'totpCode']}
          problem={problem}
          onProblem={setProblem}
          onCancel={confirming === undefined ? undefined : () => setConfirming(undefined)}
          action={async () => {
            setOutcome(undefined);
            const amountCents = parseBrl(form.amount);
            if (amountCents === undefined) return { error: 'Informe o valor em reais, por exemplo 1.234,56.', field: 'amountCents' };
            if (confirming !== amountCents) {
              // The first click shows the amount formatted and in words; the second sends it.
              setConfirming(amountCents);
              return undefined;
            }
            const body: Request = {
              amountCents,
              pixKey: form.pixKey,
              pixKeyType: form.pixKeyType as Request['pixKeyType'],
              externalRef: reference,
              totpCode: form.totpCode,
              ...(form.description.trim() ? { description: form.description.trim() } : {}),
              ...(form.recipientId ? { recipientId: form.recipientId } : {}),
            };
            const sent = await attempt(() => withdrawMutation.mutateAsync({ body }));
            setConfirming(undefined);
            if (!sent.ok) return sent.problem;
            setReference(newReference());
            await invalidate('/dashboard/api/v1/overview', '/dashboard/api/v1/transactions', '/dashboard/api/v1/statement');
            setOutcome(describe(sent.data));
            setForm({ ...form, amount: '', description: '', totpCode: '' });
            return undefined;
          }}
        >
          <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => change({ amount })} problem={problem} hint="Ponto separa milhares e vírgula os centavos: 1.234,56." />
          {total !== undefined && fee !== undefined ? (
            <p className="hint" data-testid="withdrawal-total">
              Tarifa <Money cents={fee} />; sai do saldo <Money cents={total} /> (valor + tarifa).
            </p>
          ) : null}
          {uncovered && withdrawable !== undefined && total !== undefined ? (
            <p className="warning" role="alert" data-testid="withdrawal-uncovered">
              O disponível para saque (<Money cents={withdrawable} />) não cobre <Money cents={total} />. Um saque sem aprovação manual é recusado; com aprovação
              manual, ele será recusado na aprovação se o saldo ainda não cobrir.
            </p>
          ) : null}
          {recipientsQuery.error ? (
            <p className="form-error" role="alert">
              Não foi possível ler os destinatários: {problemOf(recipientsQuery.error).error}
            </p>
          ) : null}
          <SelectField
            label="Destinatário"
            name="recipientId"
            value={form.recipientId}
            onChange={(recipientId) => change({ recipientId })}
            problem={problem}
            options={[
              { value: '', label: 'O próprio titular da conta' },
              ...recipients.map((recipient) => ({ value: recipient.recipientId, label: `${recipient.legalName} (${formatDocument(recipient.documentMasked)})` })),
            ]}
          />
          <div className="grid-2">
            <SelectField label="Tipo de chave Pix" name="pixKeyType" value={form.pixKeyType} onChange={(pixKeyType) => change({ pixKeyType })} problem={problem} options={PIX_KEY_TYPES} />
            <Field label="Chave Pix" name="pixKey" {...pixKeyInput(form.pixKeyType)} value={form.pixKey} onChange={(event) => change({ pixKey: event.target.value })} problem={problem} />
          </div>
          <Field label="Descrição (opcional)" name="description" value={form.description} onChange={(event) => change({ description: event.target.value })} problem={problem} />
          <Field
            label="Código do aplicativo autenticador"
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={form.totpCode}
            onChange={(event) => setForm({ ...form, totpCode: event.target.value })}
            problem={problem}
          />
          {confirming !== undefined ? (
            <p className="warning" role="alert" data-testid="withdrawal-confirmation">
              Confirme o saque de {formatBrl(confirming)} ({brlInWords(confirming)}). Para desistir, toque em Cancelar.
            </p>
          ) : null}
        </ActionForm>
      </div>
      <p className="muted">Referência desta tentativa: {reference}</p>
    </>
  );
}

/** What the answer means for the balance, by status (issue 22, defect 3: a withdrawal awaiting approval debited nothing). */
function describe(data: Schemas['WithdrawalCreated'] | Schemas['WithdrawalIdempotent'] | Schemas['WithdrawalUnknown']): Outcome {
  if ('error' in data) {
    // 202: debited, the final state is not known yet (within 24 h): never send it again.
    return { ok: false, transactionId: data.transactionId, text: data.error, state: data.status };
  }
  if ('idempotent' in data) {
    return { ok: true, transactionId: data.transactionId, text: 'Este saque já tinha sido enviado; nada foi debitado de novo.', state: data.status };
  }
  const total = data.amountCents + data.feeCents;
  if (data.status === 'pending_approval') {
    return {
      ok: true,
      transactionId: data.transactionId,
      state: data.status,
      text: (
        <>
          Saque de <Money cents={data.amountCents} /> enviado para aprovação da equipe PixGate. Nada foi debitado nem reservado: <Money cents={total} /> (valor +
          tarifa de <Money cents={data.feeCents} />) só sai do saldo se o saque for aprovado, e ele é recusado se o saldo não cobrir na aprovação.
        </>
      ),
    };
  }
  if (data.status === 'failed') {
    return { ok: false, transactionId: data.transactionId, state: data.status, text: <>Saque recusado; nada foi debitado. {data.refusedReason ?? ''}</> };
  }
  return {
    ok: true,
    transactionId: data.transactionId,
    state: data.status,
    text: (
      <>
        Saque de <Money cents={data.amountCents} /> criado (tarifa <Money cents={data.feeCents} />, total debitado <Money cents={data.totalDeducted} />
        ).
      </>
    ),
  };
}
