import type { ApiProblem } from '../../../shared/api.ts';
import { addDays, saoPauloDate } from '../../../shared/format.ts';
import { parseBrl } from '../../../shared/money.ts';
import { navigate } from '../../../shared/router.ts';
import { ActionForm, Field, MoneyField, SelectField } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { useInvalidate } from '../data.ts';
import { PayerDocumentFields, ReferenceField, sendRequest, useCreateForm } from '../forms.tsx';
import { PERIODICITIES, periodicityLabel, RETRY_LABEL } from '../recurrenceTerms.ts';
import { may } from '../roles.ts';

type Body = Schemas['CreateRecurrenceRequest'];

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot create two recurrences. */
const newReference = () => `recorrencia-painel-${crypto.randomUUID()}`;

/** The first cycle's charge must reach the payer's bank 2 days before it falls due. */
const FIRST_START_DAYS = 2;

const EMPTY = {
  payerName: '',
  documentType: 'cpf',
  document: '',
  contract: '',
  object: '',
  periodicity: 'monthly',
  startDate: '',
  endDate: '',
  amount: '',
  retryPolicy: 'three_in_seven_days',
  journey: 'qrcode',
  ispb: '',
  branch: '',
  account: '',
  firstPayment: '',
  reference: '',
};
type Form = typeof EMPTY;

/** Every input of the form by the request field its messages name (so none is repeated above the button). */
const FIELDS = [
  'payer.name',
  'payer.document.type',
  'payer.document.number',
  'contract',
  'object',
  'periodicity',
  'startDate',
  'endDate',
  'amountCents',
  'retryPolicy',
  'consent.journey',
  'consent.payerAccount',
  'consent.payerAccount.ispb',
  'consent.payerAccount.branch',
  'consent.payerAccount.account',
  'consent.firstPaymentCents',
  'externalRef',
];

const required = (label: string, field: string): { problem: ApiProblem } => ({ problem: { error: `${label}: campo obrigatório.`, field } });

/** The request from what was typed, or the problem of the first field the page can tell is wrong. */
function requestOf(form: Form, reference: string): { body: Body } | { problem: ApiProblem } {
  if (form.payerName.trim() === '') return required('Nome do pagador', 'payer.name');
  if (form.document.trim() === '') return required('CPF ou CNPJ do pagador', 'payer.document.number');
  if (form.contract.trim() === '') return required('Contrato', 'contract');
  if (form.startDate === '') return required('Data de início', 'startDate');
  const amountCents = parseBrl(form.amount);
  if (amountCents === undefined) return { problem: { error: 'Valor (R$): informe o valor de cada cobrança em reais, por exemplo 99,90.', field: 'amountCents' } };
  let consent: Body['consent'];
  if (form.journey === 'request') {
    if (form.ispb.trim() === '') return required('ISPB do banco do pagador', 'consent.payerAccount.ispb');
    if (form.account.trim() === '') return required('Conta do pagador', 'consent.payerAccount.account');
    consent = { journey: 'request', payerAccount: { ispb: form.ispb.trim(), ...(form.branch.trim() === '' ? {} : { branch: form.branch.trim() }), account: form.account.trim() } };
  } else if (form.journey === 'qrcode_with_payment') {
    const firstPaymentCents = parseBrl(form.firstPayment);
    if (firstPaymentCents === undefined) return { problem: { error: 'Primeiro pagamento (R$): informe o valor em reais, por exemplo 99,90.', field: 'consent.firstPaymentCents' } };
    consent = { journey: 'qrcode_with_payment', firstPaymentCents };
  } else {
    consent = { journey: 'qrcode' };
  }
  return {
    body: {
      payer: { name: form.payerName.trim(), document: { type: form.documentType === 'cnpj' ? 'cnpj' : 'cpf', number: form.document } },
      contract: form.contract.trim(),
      ...(form.object.trim() === '' ? {} : { object: form.object.trim() }),
      periodicity: form.periodicity as Body['periodicity'],
      startDate: form.startDate,
      ...(form.endDate === '' ? {} : { endDate: form.endDate }),
      amountCents,
      retryPolicy: form.retryPolicy as NonNullable<Body['retryPolicy']>,
      consent,
      // The merchant's own reference when typed; else the form's (idempotent as the API is).
      externalRef: form.reference.trim() || reference,
    },
  };
}

/**
 * "Nova recorrência" (Pix Automático): POST /dashboard/api/v1/recurrences, exactly POST /v1/recurrences
 * (rules, limits, messages), with the form's own externalRef. The created recurrence opens on its page (the
 * QR code to show the payer, or the request sent to their bank).
 */
export function NewRecurrencePage({ session }: { session: Session }) {
  const { form, setForm, set, reference, problem, setProblem } = useCreateForm(EMPTY, newReference);
  const create = $api.useMutation('post', '/dashboard/api/v1/recurrences');
  const invalidate = useInvalidate();
  const first = addDays(saoPauloDate(), FIRST_START_DAYS);

  if (!may(session, 'createDashboardRecurrence')) {
    return (
      <>
        <h1>Nova recorrência</h1>
        <p className="warning">Recorrências são criadas pelo proprietário, por administradores ou por desenvolvedores da conta.</p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="#/recorrencias">← Recorrências</a>
      </p>
      <h1>Nova recorrência</h1>
      <p className="muted">O pagador autoriza a recorrência uma vez, no app do banco dele; depois, cada cobrança é debitada na data, sem outra ação.</p>
      {session.account.kycStatus !== 'approved' ? <p className="warning">Recorrências exigem a conta aprovada pela equipe PixGate (KYC).</p> : null}
      <ActionForm
        label="Criar recorrência"
        fields={FIELDS}
        problem={problem}
        onProblem={setProblem}
        action={() =>
          sendRequest(requestOf(form, reference), (body) => create.mutateAsync({ body }), async (recurrence) => {
            await invalidate('/dashboard/api/v1/recurrences', '/dashboard/api/v1/overview');
            navigate(`/recorrencias/${recurrence.id}?${recurrence.idempotent ? 'repetida' : 'criada'}=1`);
          })
        }
      >
        <h2>Pagador</h2>
        <Field label="Nome do pagador" name="payer.name" value={form.payerName} onChange={set('payerName')} problem={problem} maxLength={140} autoComplete="off" placeholder="Maria da Silva" />
        <PayerDocumentFields
          at="payer"
          documentType={form.documentType}
          document={form.document}
          onDocumentType={(documentType) => setForm({ ...form, documentType, document: '' })}
          onDocument={(document) => setForm({ ...form, document })}
          problem={problem}
        />
        <h2>O que o pagador autoriza</h2>
        <div className="grid-2">
          <Field label="Contrato" name="contract" value={form.contract} onChange={set('contract')} problem={problem} maxLength={35} autoComplete="off" placeholder="ASSINATURA-000123" hint="O número do contrato ou da assinatura; até 35 caracteres." />
          <Field label="Objeto" name="object" value={form.object} onChange={set('object')} problem={problem} maxLength={35} autoComplete="off" placeholder="Plano Fibra 500 MB" hint="O que está sendo pago, como o pagador reconhece; opcional." />
        </div>
        <div className="grid-2">
          <SelectField
            label="Periodicidade"
            name="periodicity"
            value={form.periodicity}
            onChange={(periodicity) => setForm({ ...form, periodicity })}
            problem={problem}
            options={PERIODICITIES.map((value) => ({ value, label: periodicityLabel(value) }))}
          />
          <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} hint="O valor fixo de cada cobrança." />
        </div>
        <div className="grid-2">
          <Field label="Data de início" name="startDate" type="date" min={first} max={addDays(saoPauloDate(), 366)} value={form.startDate} onChange={set('startDate')} problem={problem} hint="O vencimento da primeira cobrança; a partir de 2 dias depois de hoje." />
          <Field label="Data de término" name="endDate" type="date" min={form.startDate || first} value={form.endDate} onChange={set('endDate')} problem={problem} hint="Opcional: em branco, vale até ser cancelada." />
        </div>
        <SelectField
          label="Novas tentativas"
          name="retryPolicy"
          value={form.retryPolicy}
          onChange={(retryPolicy) => setForm({ ...form, retryPolicy })}
          problem={problem}
          options={[
            { value: 'three_in_seven_days', label: RETRY_LABEL.three_in_seven_days },
            { value: 'none', label: RETRY_LABEL.none },
          ]}
        />
        <h2>Autorização do pagador</h2>
        <SelectField
          label="Forma de autorização"
          name="consent.journey"
          value={form.journey}
          onChange={(journey) => setForm({ ...form, journey })}
          problem={problem}
          options={[
            { value: 'qrcode', label: 'QR code: o pagador lê e autoriza' },
            { value: 'qrcode_with_payment', label: 'QR code com primeiro pagamento agora' },
            { value: 'request', label: 'Pedido enviado ao banco do pagador' },
          ]}
        />
        {form.journey === 'request' ? (
          <div className="grid-2">
            <Field label="ISPB do banco do pagador" name="consent.payerAccount.ispb" value={form.ispb} onChange={set('ispb')} problem={problem} maxLength={8} autoComplete="off" inputMode="numeric" placeholder="12345678" hint="Os 8 dígitos que identificam o banco." />
            <Field label="Agência do pagador" name="consent.payerAccount.branch" value={form.branch} onChange={set('branch')} problem={problem} maxLength={4} autoComplete="off" inputMode="numeric" placeholder="0001" hint="Opcional." />
            <Field label="Conta do pagador" name="consent.payerAccount.account" value={form.account} onChange={set('account')} problem={problem} maxLength={20} autoComplete="off" placeholder="123456-7" />
          </div>
        ) : null}
        {form.journey === 'qrcode_with_payment' ? (
          <MoneyField
            label="Primeiro pagamento (R$)"
            name="consent.firstPaymentCents"
            value={form.firstPayment}
            onChange={(firstPayment) => setForm({ ...form, firstPayment })}
            problem={problem}
            hint="Pago agora, na mesma leitura do QR code que autoriza a recorrência."
          />
        ) : null}
        <ReferenceField
          value={form.reference}
          onChange={set('reference')}
          problem={problem}
          placeholder="assinatura-8812"
          hint="O número da assinatura no seu sistema. A mesma referência devolve a mesma recorrência."
        />
      </ActionForm>
    </>
  );
}
