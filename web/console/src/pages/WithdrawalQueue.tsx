import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatCnpj, formatCpf, formatDateTime } from '../../../shared/format.ts';
import { brlInWords } from '../../../shared/money.ts';
import { ConfirmButton, Field, FormProblem, Money, Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, may, type OperatorSession, type Schemas } from '../api.ts';
import { outcome, useInvalidate } from '../queries.ts';

type Withdrawal = Schemas['AdminWithdrawal'];
type Transaction = Schemas['Transaction'];

/** A destination key as people read it: a CPF or CNPJ key formatted. */
const pixKeyShown = (withdrawal: Withdrawal) =>
  withdrawal.pixKeyType === 'cnpj' ? formatCnpj(withdrawal.pixKey) : withdrawal.pixKeyType === 'cpf' ? formatCpf(withdrawal.pixKey) : withdrawal.pixKey;

/** What an approval really did, read from the withdrawal the server answers with (it answers 200 in every case). */
export function approvalOutcome(withdrawal: Withdrawal, result: Transaction): { message: string; failed: boolean } {
  const what = `Saque ${withdrawal.transactionId} de ${formatBrl(withdrawal.amountCents)} (${withdrawal.accountLegalName ?? withdrawal.accountId})`;
  switch (result.status) {
    case 'failed':
      return { message: `${what} falhou: ${(result.refusedReason ?? 'o PSP recusou a ordem').replace(/\.$/, '')}. Nada foi debitado.`, failed: true };
    case 'failed_unknown':
      return { message: `${what} aprovado. Debitado, mas o PSP não respondeu: a conciliação vai confirmar o resultado.`, failed: false };
    case 'paid':
      return { message: `${what} aprovado. Pago.`, failed: false };
    default:
      return { message: `${what} aprovado. Enviado ao PSP (em processamento).`, failed: false };
  }
}

/** What the account's withdrawals in the queue add up to (amount + fee), and how many they are. */
function queuedTotal(withdrawals: Withdrawal[], accountId: string): { count: number; cents: number } {
  const mine = withdrawals.filter((withdrawal) => withdrawal.accountId === accountId);
  return { count: mine.length, cents: mine.reduce((sum, withdrawal) => sum + withdrawal.amountCents + withdrawal.feeCents, 0) };
}

/** The withdrawal approval queue (manual approval mode): approve, or reject with a reason the merchant receives. */
export function WithdrawalQueuePage({ session }: { session: OperatorSession }) {
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/withdrawals', { params: { query: { status: 'pending_approval', limit: 100 } } });
  const [notice, setNotice] = useState<{ message: string; failed: boolean }>();
  return (
    <>
      <h1>Fila de saques</h1>
      <p className="muted">
        Saques de contas com aprovação manual. Nada fica reservado enquanto o saque espera: aprovar debita o valor e a tarifa do saldo disponível para saque daquele momento e envia o
        Pix; recusar avisa o lojista (transfer.rejected).
      </p>
      {notice ? (
        notice.failed ? (
          <p className="form-error" role="alert">
            {notice.message}
          </p>
        ) : (
          <Notice>{notice.message}</Notice>
        )
      ) : null}
      <QueryState isPending={isPending} error={error}>
        {data?.withdrawals.length === 0 ? <Notice>Nenhum saque aguardando aprovação.</Notice> : null}
        {data?.withdrawals.map((withdrawal) => (
          <WithdrawalReview key={withdrawal.transactionId} withdrawal={withdrawal} queuedForAccount={queuedTotal(data.withdrawals, withdrawal.accountId)} session={session} onDone={setNotice} />
        ))}
      </QueryState>
    </>
  );
}

function WithdrawalReview({
  withdrawal,
  queuedForAccount,
  session,
  onDone,
}: {
  withdrawal: Withdrawal;
  queuedForAccount: { count: number; cents: number };
  session: OperatorSession;
  onDone: (notice: { message: string; failed: boolean }) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const approve = $api.useMutation('post', '/admin/v1/withdrawals/{transactionId}/approve');
  const reject = $api.useMutation('post', '/admin/v1/withdrawals/{transactionId}/reject');
  const invalidate = useInvalidate();
  const path = { params: { path: { transactionId: withdrawal.transactionId } } };
  const total = withdrawal.amountCents + withdrawal.feeCents;
  const busy = approve.isPending || reject.isPending;
  const refresh = () => invalidate('/admin/v1/withdrawals', '/admin/v1/accounts/{accountId}/balance', '/admin/v1/audit-log');
  const company = withdrawal.accountLegalName ?? withdrawal.accountId;
  return (
    <article className="card" aria-label={`Saque ${withdrawal.transactionId}`}>
      <h2>
        <Money cents={withdrawal.amountCents} /> <span className="muted">(tarifa <Money cents={withdrawal.feeCents} />)</span>
      </h2>
      <p>
        <strong>{company}</strong>
      </p>
      <p className="muted break-anywhere">
        {withdrawal.transactionId} · conta <a href={`#/contas/${withdrawal.accountId}`}>{withdrawal.accountId}</a> · chave {withdrawal.pixKeyType} {pixKeyShown(withdrawal)}
        {withdrawal.recipientId ? ` · destinatário ${withdrawal.recipientId}` : ' · para o titular'}
        {withdrawal.description ? ` · ${withdrawal.description}` : ''} · pedido em {formatDateTime(withdrawal.createdAt)}
      </p>
      {withdrawal.withdrawableCents !== undefined ? (
        <p data-testid="withdrawal-balance">
          Disponível para saque na conta agora: <strong>
            <Money cents={withdrawal.withdrawableCents} />
          </strong> —{' '}
          {withdrawal.coveredByBalance ? (
            <span className="balance-ok">cobre o saque e a tarifa (<Money cents={total} />).</span>
          ) : (
            <span className="balance-short">não cobre o saque e a tarifa (<Money cents={total} />): aprovar agora faz o saque falhar por saldo insuficiente.</span>
          )}
          {withdrawal.coveredByBalance && queuedForAccount.count > 1 && queuedForAccount.cents > withdrawal.withdrawableCents ? (
            <span className="balance-short">
              {' '}
              Os {queuedForAccount.count} saques desta conta na fila somam <Money cents={queuedForAccount.cents} />: o saldo não cobre todos.
            </span>
          ) : null}
        </p>
      ) : null}
      <FormProblem problem={problem} fields={['reason']} />
      {may(session, 'rejectWithdrawal') ? (
        <Field
          label={`Motivo da recusa do saque ${withdrawal.transactionId}`}
          name="reason"
          value={reason}
          maxLength={200}
          onChange={(event) => setReason(event.target.value)}
          problem={problem}
        />
      ) : null}
      <div className="actions">
        {may(session, 'approveWithdrawal') ? (
          <ConfirmButton
            label="Aprovar saque"
            primary
            disabled={busy}
            confirm={`Aprovar o saque de ${formatBrl(withdrawal.amountCents)} (${brlInWords(withdrawal.amountCents)}) de ${company}? ${formatBrl(total)} com a tarifa saem do saldo agora e o Pix é enviado.`}
            onConfirm={async () => {
              const result = await outcome(() => approve.mutateAsync(path));
              setProblem(result.problem);
              if (result.problem) return;
              onDone(approvalOutcome(withdrawal, result.data));
              await refresh();
            }}
          />
        ) : null}
        {may(session, 'rejectWithdrawal') ? (
          <ConfirmButton
            label="Recusar saque"
            danger
            disabled={busy}
            confirm={`Recusar o saque de ${formatBrl(withdrawal.amountCents)} de ${company}? O lojista é avisado${reason.trim() ? ` com o motivo: ${reason.trim()}` : ''}.`}
            onConfirm={async () => {
              const result = await outcome(() => reject.mutateAsync({ ...path, body: reason.trim() ? { reason: reason.trim() } : {} }));
              setProblem(result.problem);
              if (result.problem) return;
              onDone({ message: `Saque ${withdrawal.transactionId} recusado.`, failed: false });
              await refresh();
            }}
          />
        ) : null}
      </div>
    </article>
  );
}
