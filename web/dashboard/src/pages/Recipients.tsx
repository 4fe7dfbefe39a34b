import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDateTime, formatDocument, statusLabel } from '../../../shared/format.ts';
import { ActionForm, Field, FormProblem, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { DocumentField, pixKeyInput } from '../../../shared/phone.tsx';
import { DataTable } from '../../../shared/table.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

export const PIX_KEY_TYPES = [
  { value: 'cpf', label: 'CPF' },
  { value: 'cnpj', label: 'CNPJ' },
  { value: 'email', label: 'E-mail' },
  { value: 'phone', label: 'Telefone' },
  { value: 'evp', label: 'Chave aleatória' },
];
type Request = Schemas['CreateRecipientRequest'];

/** Recipients: register one for review (the same rules as POST /v1/recipients) and follow each one's status. */
export function RecipientsPage({ session }: { session: Session }) {
  const recipientsQuery = $api.useQuery('get', '/dashboard/api/v1/recipients');
  const registerMutation = $api.useMutation('post', '/dashboard/api/v1/recipients');
  const invalidate = useInvalidate();
  const recipients: Schemas['DashboardRecipient'][] | undefined = recipientsQuery.data?.recipients;
  const [form, setForm] = useState({ legalName: '', document: '', documentType: 'cpf', pixKey: '', pixKeyType: 'cpf', label: '' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  return (
    <>
      <h1>Destinatários</h1>
      <p className="muted">Saques para terceiros só vão a destinatários aprovados pela equipe PixGate (análise de compliance).</p>
      {notice ? <Notice>{notice}</Notice> : null}
      {may(session, 'registerDashboardRecipient') ? (
        <section aria-label="Novo destinatário">
          <h2>Cadastrar destinatário</h2>
          <ActionForm
            label="Enviar para análise"
            fields={['legalName', 'document', 'documentType', 'pixKey', 'pixKeyType', 'label']}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              setNotice(undefined);
              const body = {
                legalName: form.legalName,
                document: form.document,
                documentType: form.documentType as Request['documentType'],
                pixKey: form.pixKey,
                pixKeyType: form.pixKeyType as Request['pixKeyType'],
                ...(form.label.trim() ? { label: form.label.trim() } : {}),
              };
              const registered = await attempt(() => registerMutation.mutateAsync({ body }));
              if (!registered.ok) return registered.problem;
              setNotice(`${registered.data.note} (${registered.data.recipientId})`);
              setForm({ ...form, legalName: '', document: '', pixKey: '', label: '' });
              await invalidate('/dashboard/api/v1/recipients');
              return undefined;
            }}
          >
            <Field label="Nome ou razão social" name="legalName" value={form.legalName} onChange={(event) => setForm({ ...form, legalName: event.target.value })} problem={problem} />
            <div className="grid-2">
              <SelectField
                label="Tipo de documento"
                name="documentType"
                value={form.documentType}
                onChange={(documentType) => setForm({ ...form, documentType })}
                problem={problem}
                options={[
                  { value: 'cpf', label: 'CPF' },
                  { value: 'cnpj', label: 'CNPJ' },
                ]}
              />
              <DocumentField
                key={form.documentType}
                label="Documento"
                name="document"
                kind={form.documentType === 'cnpj' ? 'cnpj' : 'cpf'}
                value={form.document}
                onChange={(document) => setForm({ ...form, document })}
                problem={problem}
              />
              <SelectField label="Tipo de chave Pix" name="pixKeyType" value={form.pixKeyType} onChange={(pixKeyType) => setForm({ ...form, pixKeyType })} problem={problem} options={PIX_KEY_TYPES} />
              <Field label="Chave Pix" name="pixKey" {...pixKeyInput(form.pixKeyType)} value={form.pixKey} onChange={(event) => setForm({ ...form, pixKey: event.target.value })} problem={problem} />
            </div>
            <Field label="Apelido (opcional)" name="label" value={form.label} onChange={(event) => setForm({ ...form, label: event.target.value })} problem={problem} />
          </ActionForm>
        </section>
      ) : (
        <FormProblem problem={problem} />
      )}
      <h2>Cadastrados</h2>
      {!recipients ? (
        <QueryState isPending={recipientsQuery.isPending} error={recipientsQuery.error} />
      ) : recipients.length === 0 ? (
        <Notice>Nenhum destinatário cadastrado.</Notice>
      ) : (
        <DataTable
          caption="Destinatários"
          rows={recipients}
          rowKey={(recipient) => recipient.recipientId}
          columns={[
            {
              header: 'Nome',
              kind: 'title',
              cell: (recipient) => (
                <>
                  {recipient.legalName}
                  {recipient.label ? <div className="muted">{recipient.label}</div> : null}
                  <div className="muted wrap-anywhere">{recipient.recipientId}</div>
                </>
              ),
            },
            { header: 'Situação', cell: (recipient) => <Status value={recipient.status} label={statusLabel(recipient.status)} /> },
            { header: 'Documento', cell: (recipient) => <span className="nowrap">{formatDocument(recipient.documentMasked)}</span> },
            { header: 'Chave', cell: (recipient) => PIX_KEY_TYPES.find((type) => type.value === recipient.pixKeyType)?.label },
            { header: 'Observação da análise', cell: (recipient) => recipient.reviewNote ?? '—' },
            { header: 'Cadastrado em', cell: (recipient) => formatDateTime(recipient.createdAt) },
          ]}
        />
      )}
    </>
  );
}
