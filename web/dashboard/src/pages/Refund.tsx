import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDateTime, formatBrl } from '../../../shared/format.ts';
import { brlInWords, parseBrl } from '../../../shared/money.ts';
import { ActionForm, Field, Money, MoneyField, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt } from '../data.ts';
import { may } from '../roles.ts';

type Refund = Schemas['Refund'];
type Transaction = Schemas['Transaction'];

const REFUND_STATUS: Record<Refund['status'], string> = { processing: 'Em processamento', refunded: 'Devolvida', failed: 'Não realizada' };

/** The refunds of a charge, newest first, with their outcome. */
export function RefundTable({ refunds }: { refunds: Refund[] }) {
  return (
    <section className="card" aria-label="Devoluções">
      <h2>Devoluções</h2>
      <div className="table-scroll">
        <table>
          <caption className="sr-only">Devoluções da cobrança</caption>
          <thead>
            <tr>
              <th scope="col">Devolução</th>
              <th scope="col" className="num">
                Valor
              </th>
              <th scope="col">Situação</th>
              <th scope="col">Descrição</th>
              <th scope="col">Pedida em</th>
              <th scope="col">Concluída em</th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((refund) => (
              <tr key={refund.refundId}>
                <td>
                  {refund.refundId}
                  {refund.refundEndToEndId ? <div className="muted">{refund.refundEndToEndId}</div> : null}
                </td>
                <td className="num">
                  <Money cents={refund.amountCents} />
                </td>
                <td>
                  <Status value={refund.status} label={REFUND_STATUS[refund.status]} />
                  {refund.refusedReason ? <div className="muted">{refund.refusedReason}</div> : null}
                </td>
                <td>{refund.description ?? '—'}</td>
                <td>{formatDateTime(refund.createdAt)}</td>
                <td>{formatDateTime(refund.refundedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
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
  const [form, setForm] = useState({ amount: '', description: '', totpCode: '' });
  const [reference, setReference] = useState(newRefundReference);
  const [confirming, setConfirming] = useState<number>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const refundMutation = $api.useMutation('post', '/dashboard/api/v1/transactions/{transactionId}/refunds');
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
        Devolve ao pagador, por PIX, até <Money cents={refundable} /> desta cobrança (em até 90 dias do pagamento). O valor sai do saldo disponível agora; a
        tarifa da cobrança não é devolvida.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ActionForm
        label={confirming === undefined ? 'Devolver' : `Confirmar devolução de ${formatBrl(confirming)}`}
        fields={['amountCents', 'description', 'totpCode']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          setNotice(undefined);
          const amountCents = form.amount.trim() === '' ? refundable : parseBrl(form.amount);
          if (amountCents === undefined || amountCents < 1) return { error: 'Informe o valor em reais, por exemplo 15,00.', field: 'amountCents' };
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
          hint={`Em branco: tudo o que ainda pode ser devolvido (${formatBrl(refundable)}).`}
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
            Confirme: {formatBrl(confirming)} serão devolvidos ao pagador e sairão do saldo disponível. Por extenso: {brlInWords(confirming)}. Esc cancela.
          </p>
        ) : null}
      </ActionForm>
    </section>
  );
}
