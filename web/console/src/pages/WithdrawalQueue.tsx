import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime } from '../../../shared/format.ts';
import { Field, FormProblem, Loading, Notice } from '../../../shared/ui.tsx';
import { api, may, type OperatorSession, type Schemas } from '../api.ts';

type Withdrawal = Schemas['AdminWithdrawal'];

/** The withdrawal approval queue (manual approval mode): approve, or reject with a reason the merchant receives. */
export function WithdrawalQueuePage({ session }: { session: OperatorSession }) {
  const [queue, setQueue] = useState<Withdrawal[]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/admin/v1/withdrawals', { params: { query: { status: 'pending_approval', limit: 100 } } });
    if (error) setProblem(problemOf(error));
    else setQueue(data.withdrawals);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const changed = (message: string) => {
    setNotice(message);
    void load();
  };
  return (
    <>
      <h1>Fila de saques</h1>
      <p className="muted">Saques de contas com aprovação manual. Aprovar envia o Pix; recusar devolve o valor reservado e avisa o lojista (transfer.rejected).</p>
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      {!queue ? (
        <Loading />
      ) : queue.length === 0 ? (
        <Notice>Nenhum saque aguardando aprovação.</Notice>
      ) : (
        queue.map((withdrawal) => <WithdrawalReview key={withdrawal.transactionId} withdrawal={withdrawal} session={session} onChanged={changed} />)
      )}
    </>
  );
}

function WithdrawalReview({ withdrawal, session, onChanged }: { withdrawal: Withdrawal; session: OperatorSession; onChanged: (message: string) => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const path = { params: { path: { transactionId: withdrawal.transactionId } } };
  const label = `${formatBrl(withdrawal.amountCents)} para ${withdrawal.pixKeyType} ${withdrawal.pixKey}`;
  return (
    <article className="card" aria-label={`Saque ${withdrawal.transactionId}`}>
      <h2>
        {formatBrl(withdrawal.amountCents)} <span className="muted">(tarifa {formatBrl(withdrawal.feeCents)})</span>
      </h2>
      <p className="muted">
        {withdrawal.transactionId} · conta <a href={`#/contas/${withdrawal.accountId}`}>{withdrawal.accountId}</a> · chave {withdrawal.pixKeyType} {withdrawal.pixKey}
        {withdrawal.recipientId ? ` · destinatário ${withdrawal.recipientId}` : ' · para o titular'}
        {withdrawal.description ? ` · ${withdrawal.description}` : ''} · pedido em {formatDateTime(withdrawal.createdAt)}
      </p>
      <FormProblem problem={problem} fields={['reason']} />
      {may(session, 'rejectWithdrawal') ? (
        <Field label={`Motivo da recusa do saque ${withdrawal.transactionId}`} name="reason" value={reason} onChange={(event) => setReason(event.target.value)} problem={problem} />
      ) : null}
      <div className="actions">
        {may(session, 'approveWithdrawal') ? (
          <button
            type="button"
            onClick={() =>
              void (async () => {
                const { error } = await api.POST('/admin/v1/withdrawals/{transactionId}/approve', path);
                if (error) setProblem(problemOf(error));
                else onChanged(`Saque ${withdrawal.transactionId} (${label}) aprovado.`);
              })()
            }
          >
            Aprovar saque
          </button>
        ) : null}
        {may(session, 'rejectWithdrawal') ? (
          <button
            type="button"
            className="danger"
            onClick={() =>
              void (async () => {
                const { error } = await api.POST('/admin/v1/withdrawals/{transactionId}/reject', { ...path, body: reason.trim() ? { reason: reason.trim() } : {} });
                if (error) setProblem(problemOf(error));
                else onChanged(`Saque ${withdrawal.transactionId} recusado.`);
              })()
            }
          >
            Recusar saque
          </button>
        ) : null}
      </div>
    </article>
  );
}
