import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDateTime, formatBrl } from '../../../shared/format.ts';
import { brlInWords, parseBrl } from '../../../shared/money.ts';
import { DataTable } from '../../../shared/table.tsx';
import { ActionForm, Field, Money, MoneyField, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

type Refund = Schemas['Refund'];
type Transaction = Schemas['Transaction'];

const REFUND_STATUS: Record<Refund['status'], string> = { processing: 'Em processamento', refunded: 'Devolvida', failed: 'Não realizada' };

/** The refunds of a charge, newest first, with their outcome. */
export function RefundTable({ refunds }: { refunds: Refund[] }) {
  return (
    <section className="card" aria-label="Devoluções">
      <h2>Devoluções</h2>
      <DataTable
        caption="Devoluções da cobrança"
        rows={refunds}
        rowKey={(refund) => refund.refundId}
        columns={[
          {
            header: 'Devolução',
            kind: 'title',
            cell: (refund) => (
              <>
                <span className="wrap-anywhere">{refund.refundId}</span>
                {refund.refundEndToEndId ? <div className="muted wrap-anywhere">{refund.refundEndToEndId}</div> : null}
              </>
            ),
          },
          { header: 'Valor', kind: 'money', cell: (refund) => <Money cents={refund.amountCents} /> },
          {
            header: 'Situação',
            cell: (refund) => (
              <>
                <Status value={refund.status} label={REFUND_STATUS[refund.status]} />
                {refund.refusedReason ? <div className="muted">{refund.refusedReason}</div> : null}
              </>
            ),
          },
          { header: 'Descrição', cell: (refund) => refund.description ?? '—' },
          { header: 'Pedida em', cell: (refund) => formatDateTime(refund.createdAt) },
          { header: 'Concluída em', cell: (refund) => formatDateTime(refund.refundedAt) },
        ]}
      />
    </section>
  );
}

/**
 * What a refund may return now: what the charge can still give back, within the withdrawable balance the
 * refund leaves from (unknown until read: the charge's own limit).
 */
export function refundLimit(refundableCents: number, withdrawableCents: number | undefined): number {
  return withdrawableCents === undefined ? refundableCents : Math.max(0, Math.min(refundableCents, withdrawableCents));
}

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot refund twice. */
const newRefundReference = () => `devolucao-painel-${crypto.randomUUID()}`;

/**
 * "Devolver": POST /v1/transactions/{id}/refunds from the page, with the authenticator's code, after a
 * confirmation that says the amount (formatted and in words) and that the fee is not returned. Owner or
 * admin, two-factor on. Escape cancels the confirmation.
 */
export function RefundForm(props: { session: Session; transaction: Transaction; refunds: Refund[]; onDone: () => void }) {
  const { session, transaction } = props;
  const inFlight = props.refunds.filter((refund) => refund.status === 'processing').reduce((sum, refund) => sum + refund.amountCents, 0);
  const refundable = Math.max(0, transaction.amountCents - (transaction.refundedCents ?? 0) - inFlight);
  // A refund leaves the withdrawable balance (available less holds), which may hold less than the charge:
  // its fee was kept, and other money may have left since (issue 38, defect 2).
  const overviewQuery = $api.useQuery('get', '/dashboard/api/v1/overview');
  const withdrawable = overviewQuery.data?.balance.withdrawableCents;
  const limit = refundLimit(refundable, withdrawable);
  const [form, setForm] = useState({ amount: '', description: '', totpCode: '' });
  const [reference, setReference] = useState(newRefundReference);
  const [confirming, setConfirming] = useState<number>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const refundMutation = $api.useMutation('post', '/dashboard/api/v1/transactions/{transactionId}/refunds');
  const invalidate = useInvalidate();
  if (!may(session, 'createDashboardRefund')) return null;
  if (!session.user.twoFactorEnabled) {
    return (
      <section className="card" aria-label="Devolver">
        <h2>Devolver</h2>
        <p className="warning">
          Devoluções pelo painel exigem a verificação em duas etapas. <a href="#/seguranca">Ative-a em Segurança</a>.
        </p>
      </section>
    );
  }
  return (
    <section
      className="card"
      aria-label="Devolver"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && confirming !== undefined) setConfirming(undefined);
      }}
    >
      <h2>Devolver</h2>
      <p className="muted">
        Devolve ao pagador, por PIX, até <Money cents={refundable} /> desta cobrança (em até 90 dias do pagamento). O valor sai do saldo disponível para saque
        agora; a tarifa da cobrança não é devolvida.
      </p>
      {withdrawable !== undefined ? (
        <p data-testid="refund-limit">
          Disponível para saque agora: <Money cents={withdrawable} />.{' '}
          {withdrawable >= refundable ? (
            <>
              Pode devolver até <Money cents={limit} />.
            </>
          ) : withdrawable > 0 ? (
            <strong>
              O saldo limita a devolução a <Money cents={limit} /> (faltam <Money cents={refundable - withdrawable} /> para devolver tudo).
            </strong>
          ) : (
            <strong>Sem saldo para devolver agora: receba outras cobranças ou aguarde a liberação de bloqueios.</strong>
          )}
        </p>
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <ActionForm
        label={confirming === undefined ? 'Devolver' : `Confirmar devolução de ${formatBrl(confirming)}`}
        fields={['amountCents', 'description', 'totpCode']}
        problem={problem}
        onProblem={setProblem}
        onCancel={confirming === undefined ? undefined : () => setConfirming(undefined)}
        action={async () => {
          setNotice(undefined);
          const amountCents = form.amount.trim() === '' ? limit : parseBrl(form.amount);
          if (amountCents === undefined || amountCents < 1) {
            return { error: limit < 1 && form.amount.trim() === '' ? 'Sem saldo disponível para saque para devolver agora.' : 'Informe o valor em reais, por exemplo 15,00.', field: 'amountCents' };
          }
          if (amountCents > refundable) return { error: `Valor: esta cobrança ainda pode devolver até ${formatBrl(refundable)}.`, field: 'amountCents' };
          if (withdrawable !== undefined && amountCents > withdrawable) {
            return { error: `Valor: o disponível para saque agora é ${formatBrl(withdrawable)}; a devolução sai dele (a tarifa da cobrança não volta).`, field: 'amountCents' };
          }
          if (confirming !== amountCents) {
            // The first click asks for confirmation of the amount; the second sends it.
            setConfirming(amountCents);
            return undefined;
          }
          const outcome = await attempt(() =>
            refundMutation.mutateAsync({
              params: { path: { transactionId: transaction.transactionId } },
              body: {
                amountCents,
                externalRef: reference,
                totpCode: form.totpCode,
                ...(form.description.trim() ? { description: form.description.trim() } : {}),
              },
            }),
          );
          setConfirming(undefined);
          if (!outcome.ok) return outcome.problem;
          setReference(newRefundReference());
          setForm({ amount: '', description: '', totpCode: '' });
          await invalidate('/dashboard/api/v1/overview', '/dashboard/api/v1/statement');
          setNotice(
            'idempotent' in outcome.data
              ? 'Esta devolução já tinha sido pedida; nada foi debitado de novo.'
              : `Devolução de ${formatBrl(outcome.data.amountCents)} pedida (${outcome.data.refundId}): em processamento.`,
          );
          props.onDone();
          return undefined;
        }}
      >
        <MoneyField
          label="Valor (R$)"
          name="amountCents"
          hint={`Em branco: ${formatBrl(limit)}, ${limit < refundable ? 'o que o saldo disponível para saque permite agora' : 'tudo o que ainda pode ser devolvido'}.`}
          value={form.amount}
          problem={problem}
          onChange={(amount) => {
            setConfirming(undefined);
            setForm({ ...form, amount });
          }}
        />
        <Field
          label="Descrição para o pagador"
          name="description"
          maxLength={140}
          value={form.description}
          problem={problem}
          onChange={(event) => setForm({ ...form, description: event.target.value })}
        />
        <Field
          label="Código do aplicativo autenticador"
          name="totpCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={form.totpCode}
          problem={problem}
          onChange={(event) => setForm({ ...form, totpCode: event.target.value })}
        />
        {confirming !== undefined ? (
          <p className="warning" role="alert">
            Confirme: {formatBrl(confirming)} serão devolvidos ao pagador e sairão do saldo disponível para saque. Por extenso: {brlInWords(confirming)}. Para
            desistir, toque em Cancelar.
          </p>
        ) : null}
      </ActionForm>
    </section>
  );
}
