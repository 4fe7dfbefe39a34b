import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { formatCnpj, formatCpf, formatDateTime, statusLabel } from '../../../../shared/format.ts';
import { ActionButton, Field, FormProblem, QueryState, Status } from '../../../../shared/ui.tsx';
import { $api, may, type OperatorSession, type Schemas } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section, type SectionProps } from './Section.tsx';

/**
 * Approve or reject a recipient, with the operator's note (kept as the recipient's review note for either
 * decision). Each button is disabled while its request runs, so a double click decides once.
 */
export function RecipientReview(props: { accountId: string; recipient: Schemas['AdminRecipient']; session: OperatorSession; onChanged: (message: string) => void }) {
  const { accountId, recipient } = props;
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const approve = $api.useMutation('post', '/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve');
  const reject = $api.useMutation('post', '/admin/v1/accounts/{accountId}/recipients/{recipientId}/reject');
  const invalidate = useInvalidate();
  if (recipient.status !== 'pending_review' || !may(props.session, 'approveRecipient')) return null;
  const decide = async (mutation: typeof approve | typeof reject, done: string) => {
    const init = { params: { path: { accountId, recipientId: recipient.recipientId } }, body: note.trim() ? { note: note.trim() } : {} };
    const result = await outcome(() => mutation.mutateAsync(init));
    setProblem(result.problem);
    if (result.problem) return;
    await invalidate('/admin/v1/recipients', '/admin/v1/accounts/{accountId}/recipients', '/admin/v1/audit-log');
    props.onChanged(done);
  };
  const busy = approve.isPending || reject.isPending;
  return (
    <div>
      <Field label={`Observação sobre ${recipient.legalName}`} name="note" value={note} maxLength={200} onChange={(event) => setNote(event.target.value)} problem={problem} />
      <FormProblem problem={problem} fields={['note']} />
      <div className="actions">
        <ActionButton label={`Aprovar ${recipient.legalName}`} disabled={busy} onClick={() => decide(approve, `Destinatário ${recipient.legalName} aprovado.`)} />
        <ActionButton label={`Recusar ${recipient.legalName}`} className="danger" disabled={busy} onClick={() => decide(reject, `Destinatário ${recipient.legalName} recusado.`)} />
      </div>
    </div>
  );
}

/** A recipient's document, formatted. */
export function recipientDocument(recipient: Schemas['AdminRecipient']): string {
  return `${recipient.documentType.toUpperCase()} ${recipient.documentType === 'cnpj' ? formatCnpj(recipient.document) : formatCpf(recipient.document)}`;
}

/** The account's recipients, every status, with the review of those waiting. */
export function RecipientsSection({ accountId, session, onChanged }: SectionProps) {
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/accounts/{accountId}/recipients', { params: { path: { accountId } } });
  return (
    <Section title="Destinatários">
      <QueryState isPending={isPending} error={error}>
        {data?.recipients.length === 0 ? <p>Nenhum destinatário.</p> : null}
        {data?.recipients.map((recipient) => (
          <article key={recipient.recipientId} className="card" aria-label={`Destinatário ${recipient.legalName}`}>
            <h3>
              {recipient.legalName} <Status value={recipient.status} label={statusLabel(recipient.status)} />
            </h3>
            <p className="muted">
              {recipientDocument(recipient)} · chave {recipient.pixKeyType} {recipient.pixKey} · {formatDateTime(recipient.createdAt)}
              {recipient.reviewNote ? ` · Observação: ${recipient.reviewNote}` : ''}
            </p>
            <RecipientReview accountId={accountId} recipient={recipient} session={session} onChanged={onChanged} />
          </article>
        ))}
      </QueryState>
    </Section>
  );
}
