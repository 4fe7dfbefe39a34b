import { useState } from 'react';
import { formatDateTime } from '../../../shared/format.ts';
import { Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, type OperatorSession } from '../api.ts';
import { RecipientReview, recipientDocument } from './account/Recipients.tsx';

/** The recipient review queue across accounts (compliance/AML): oldest first, approve or reject with a note. */
export function RecipientQueuePage({ session }: { session: OperatorSession }) {
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/recipients', { params: { query: { status: 'pending_review', limit: 100 } } });
  const [notice, setNotice] = useState<string>();
  return (
    <>
      <h1>Fila de destinatários</h1>
      <p className="muted">Destinatários aguardando análise de compliance/AML. Cada decisão fica no registro de auditoria com o seu nome.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      <QueryState isPending={isPending} error={error}>
        {data?.recipients.length === 0 ? <Notice>Nenhum destinatário aguardando análise.</Notice> : null}
        {data?.recipients.map(({ accountId, accountLegalName, recipient }) => (
          <article key={recipient.recipientId} className="card" aria-label={`Destinatário ${recipient.legalName}`}>
            <h2>{recipient.legalName}</h2>
            <p className="muted">
              Conta <a href={`#/contas/${accountId}`}>{accountLegalName}</a> · {recipientDocument(recipient)} · chave {recipient.pixKeyType} {recipient.pixKey} · cadastrado em{' '}
              {formatDateTime(recipient.createdAt)}
            </p>
            <RecipientReview accountId={accountId} recipient={recipient} session={session} onChanged={setNotice} />
          </article>
        ))}
      </QueryState>
    </>
  );
}
