import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { FormProblem, Loading, Notice } from '../../../shared/ui.tsx';
import { api, type OperatorSession, type Schemas } from '../api.ts';
import { RecipientReview } from './Account.tsx';

/** The recipient review queue across accounts (compliance/AML): oldest first, approve or reject with a note. */
export function RecipientQueuePage({ session }: { session: OperatorSession }) {
  const [queue, setQueue] = useState<Schemas['QueuedRecipient'][]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/admin/v1/recipients', { params: { query: { status: 'pending_review', limit: 100 } } });
    if (error) setProblem(problemOf(error));
    else setQueue(data.recipients);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <h1>Fila de destinatários</h1>
      <p className="muted">Destinatários aguardando análise de compliance/AML. Cada decisão fica no registro de auditoria com o seu nome.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      {!queue ? (
        <Loading />
      ) : queue.length === 0 ? (
        <Notice>Nenhum destinatário aguardando análise.</Notice>
      ) : (
        queue.map(({ accountId, accountLegalName, recipient }) => (
          <article key={recipient.recipientId} className="card" aria-label={`Destinatário ${recipient.legalName}`}>
            <h2>{recipient.legalName}</h2>
            <p className="muted">
              Conta <a href={`#/contas/${accountId}`}>{accountLegalName}</a> · {recipient.documentType.toUpperCase()} {recipient.document} · chave{' '}
              {recipient.pixKeyType} {recipient.pixKey} · cadastrado em {formatDateTime(recipient.createdAt)}
            </p>
            <RecipientReview
              accountId={accountId}
              recipient={recipient}
              session={session}
              onChanged={(message) => {
                setNotice(message);
                void load();
              }}
            />
          </article>
        ))
      )}
    </>
  );
}
