import { useState } from 'react';
import { formatBrl, formatDateTime } from '../../../shared/format.ts';
import { parseBrl } from '../../../shared/money.ts';
import { ActionForm, Field, MoneyField, Notice } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, useInvalidate } from '../data.ts';
import { PayerDocumentFields, ReferenceField, useCreateForm } from '../forms.tsx';
import { may } from '../roles.ts';
import { ChargeCode } from './Transaction.tsx';

type Created = Schemas['ChargeCreated'] | Schemas['ChargeIdempotent'];

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot create two charges. */
const newReference = () => `cobranca-painel-${crypto.randomUUID()}`;

const EMPTY = { amount: '', reference: '', name: '', email: '', phone: '', documentType: 'cpf', document: '', expiresInDays: '' };

/**
 * "Nova cobrança": POST /dashboard/api/v1/charges, exactly POST /v1/pix (rules, limits, messages, events),
 * with the form's own externalRef (idempotent as the API is). The created charge is shown with its QR code
 * and copy-and-paste code.
 */
export function NewChargePage({ session }: { session: Session }) {
  const { form, setForm, set, reference, setReference, problem, setProblem } = useCreateForm(EMPTY, newReference);
  const [created, setCreated] = useState<Created>();
  const create = $api.useMutation('post', '/dashboard/api/v1/charges');
  const invalidate = useInvalidate();

  if (!may(session, 'createDashboardCharge')) {
    return (
      <>
        <h1>Nova cobrança</h1>
        <p className="warning">Cobranças pelo painel são criadas pelo proprietário, por administradores ou por desenvolvedores da conta.</p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="#/transacoes">← Transações</a>
      </p>
      <h1>Nova cobrança</h1>
      {session.account.kycStatus !== 'approved' ? <p className="warning">Cobranças exigem a conta aprovada pela equipe PixGate (KYC).</p> : null}
      {created ? (
        <>
          <Notice>
            {'idempotent' in created ? 'Esta cobrança já tinha sido criada; é a mesma.' : 'Cobrança criada.'} {formatBrl(created.amountCents)}, pagável até{' '}
            {formatDateTime(created.expiresAt * 1000)}. <a href={`#/transacoes/${created.transactionId}`}>Ver a cobrança {created.transactionId}</a>
          </Notice>
          {'idempotent' in created && (created.mismatchedFields?.length ?? 0) > 0 ? (
            <p className="warning" role="alert">
              Esta referência já é de uma cobrança com outros dados, criada nos últimos 7 dias: nenhuma cobrança nova foi criada. Para outra cobrança, use outra
              referência.
            </p>
          ) : null}
          <ChargeCode transactionId={created.transactionId} payload={created.pixPayload} payable={created.status === 'pending'} />
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setCreated(undefined);
              setProblem(undefined);
            }}
          >
            Criar outra cobrança
          </button>
        </>
      ) : (
        <ActionForm
          label="Criar cobrança"
          fields={['amountCents', 'externalRef', 'customer.name', 'customer.email', 'customer.phone', 'customer.document.number', 'customer.document.type', 'expiresInDays']}
          problem={problem}
          onProblem={setProblem}
          action={async () => {
            const amountCents = parseBrl(form.amount);
            if (amountCents === undefined) return { error: 'Informe o valor em reais, por exemplo 1.234,56.', field: 'amountCents' };
            const days = form.expiresInDays.trim() === '' ? undefined : Number(form.expiresInDays);
            // The merchant's own reference when typed (issue 38: searchable by its beginning); else the form's.
            const body: Schemas['CreateChargeRequest'] = {
              amountCents,
              externalRef: form.reference.trim() || reference,
              customer: {
                name: form.name.trim(),
                email: form.email.trim(),
                phone: form.phone.replace(/\D/g, ''),
                document: { number: form.document.trim(), type: form.documentType as 'cpf' | 'cnpj' },
              },
              ...(days !== undefined ? { expiresInDays: days } : {}),
            };
            const sent = await attempt(() => create.mutateAsync({ body }));
            if (!sent.ok) return sent.problem;
            setReference(newReference());
            setForm(EMPTY);
            setCreated(sent.data);
            await invalidate('/dashboard/api/v1/transactions', '/dashboard/api/v1/overview');
            return undefined;
          }}
        >
          <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} hint="Ponto separa milhares e vírgula os centavos: 1.234,56." />
          <ReferenceField
            value={form.reference}
            onChange={set('reference')}
            problem={problem}
            placeholder="pedido-1042"
            hint="O número do pedido no seu sistema: a busca de Transações o encontra pelo começo. A mesma referência em até 7 dias devolve a mesma cobrança."
          />
          <h2>Pagador</h2>
          <Field label="Nome do pagador" name="customer.name" value={form.name} onChange={set('name')} problem={problem} autoComplete="off" />
          <div className="grid-2">
            <Field label="E-mail do pagador" name="customer.email" type="email" value={form.email} onChange={set('email')} problem={problem} autoComplete="off" />
            <Field label="Telefone do pagador" name="customer.phone" inputMode="tel" value={form.phone} onChange={set('phone')} problem={problem} placeholder="11987654321" />
            <PayerDocumentFields
              documentType={form.documentType}
              document={form.document}
              onDocumentType={(documentType) => setForm({ ...form, documentType })}
              onDocument={(document) => setForm({ ...form, document })}
              problem={problem}
            />
          </div>
          <Field
            label="Prazo para pagar, em dias (opcional)"
            name="expiresInDays"
            inputMode="numeric"
            value={form.expiresInDays}
            onChange={set('expiresInDays')}
            problem={problem}
            hint="Em branco: o prazo padrão da API."
          />
        </ActionForm>
      )}
    </>
  );
}
