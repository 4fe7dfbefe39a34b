import { getStates } from '@brazilian-utils/brazilian-utils/get-states';
import type { ApiProblem } from '../../../shared/api.ts';
import { addDays, saoPauloDate } from '../../../shared/format.ts';
import { parseBrl } from '../../../shared/money.ts';
import { navigate } from '../../../shared/router.ts';
import { ActionForm, Field, MoneyField, SelectField } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { useInvalidate } from '../data.ts';
import { besideItsInput, DISCOUNT_DATE_FIELD, parsePercent } from '../dueChargeTerms.ts';
import { PayerDocumentFields, ReferenceField, sendRequest, useCreateForm } from '../forms.tsx';
import { may } from '../roles.ts';

type Body = Schemas['CreateDueChargeRequest'];

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot create two charges. */
const newReference = () => `vencimento-painel-${crypto.randomUUID()}`;

const UF_OPTIONS = [{ value: '', label: 'Escolha a UF' }, ...getStates().map((state) => ({ value: state.code, label: `${state.name} (${state.code})` }))];

const EMPTY = {
  amount: '',
  dueDate: '',
  daysAfterDue: '30',
  reference: '',
  description: '',
  name: '',
  documentType: 'cpf',
  document: '',
  street: '',
  city: '',
  state: '',
  postalCode: '',
  fine: '',
  interest: '',
  discount: '',
  discountUntil: '',
  rebate: '',
};
type Form = typeof EMPTY;

/** Every input of the form by the request field its messages name (so none is repeated above the button). */
const FIELDS = [
  'amountCents',
  'dueDate',
  'daysAfterDue',
  'externalRef',
  'description',
  'customer.name',
  'customer.document.type',
  'customer.document.number',
  'customer.address.street',
  'customer.address.city',
  'customer.address.state',
  'customer.address.postalCode',
  'fine',
  'interest',
  'discount',
  DISCOUNT_DATE_FIELD,
  'rebate',
];

/** The request from what was typed, or the problem of the first field the page can tell is wrong. */
function requestOf(form: Form, reference: string): { body: Body } | { problem: ApiProblem } {
  const amountCents = parseBrl(form.amount);
  if (amountCents === undefined) return { problem: { error: 'Valor: informe o valor em reais, por exemplo 1.234,56.', field: 'amountCents' } };
  if (form.dueDate === '') return { problem: { error: 'Vencimento: campo obrigatório.', field: 'dueDate' } };
  if (!/^\d{1,3}$/.test(form.daysAfterDue.trim())) {
    return { problem: { error: 'Dias para pagar após o vencimento: informe um número inteiro de 0 a 365.', field: 'daysAfterDue' } };
  }
  const percent = (typed: string, field: string, label: string): number | undefined | ApiProblem => {
    if (typed.trim() === '') return undefined;
    return parsePercent(typed) ?? { error: `${label}: informe um percentual de 0,01 a 100, por exemplo 2 ou 2,5.`, field };
  };
  const money = (typed: string, field: string, label: string): number | undefined | ApiProblem => {
    if (typed.trim() === '') return undefined;
    const cents = parseBrl(typed);
    return cents !== undefined && cents > 0 ? cents : { error: `${label}: informe um valor em reais, por exemplo 10,00.`, field };
  };
  const fine = percent(form.fine, 'fine', 'Multa');
  const interest = percent(form.interest, 'interest', 'Juros');
  const discount = money(form.discount, 'discount', 'Desconto');
  const rebate = money(form.rebate, 'rebate', 'Abatimento');
  for (const value of [fine, interest, discount, rebate]) if (typeof value === 'object') return { problem: value };
  if (discount !== undefined && form.discountUntil === '') return { problem: { error: 'Desconto até: informe até que dia o desconto vale.', field: DISCOUNT_DATE_FIELD } };
  if (discount === undefined && form.discountUntil !== '') return { problem: { error: 'Desconto: informe o valor do desconto, ou apague a data.', field: 'discount' } };
  const address = [form.street, form.city, form.state, form.postalCode].some((part) => part.trim() !== '');
  const description = form.description.trim();
  return {
    body: {
      amountCents,
      dueDate: form.dueDate,
      daysAfterDue: Number(form.daysAfterDue.trim()),
      // The merchant's own reference when typed; else the form's (idempotent as the API is).
      externalRef: form.reference.trim() || reference,
      ...(description ? { description } : {}),
      customer: {
        name: form.name.trim(),
        document: { number: form.document.trim(), type: form.documentType as 'cpf' | 'cnpj' },
        ...(address
          ? {
              address: {
                street: form.street.trim(),
                city: form.city.trim(),
                state: form.state as NonNullable<Body['customer']['address']>['state'],
                postalCode: form.postalCode.replace(/\D/g, ''),
              },
            }
          : {}),
      },
      ...(typeof fine === 'number' ? { fine: { mode: 'percent' as const, basisPoints: fine } } : {}),
      ...(typeof interest === 'number' ? { interest: { mode: 'percent_per_month_calendar_days' as const, basisPoints: interest } } : {}),
      ...(typeof discount === 'number' ? { discount: { mode: 'fixed_until_dates' as const, dates: [{ date: form.discountUntil, amountCents: discount }] } } : {}),
      ...(typeof rebate === 'number' ? { rebate: { mode: 'fixed' as const, amountCents: rebate } } : {}),
    },
  };
}

/**
 * "Nova cobrança com vencimento": POST /dashboard/api/v1/due-charges, exactly POST /v1/due-charges (rules,
 * terms, limits, messages, events), with the form's own externalRef. The created charge opens on its page
 * (BR Code, QR code, amount due today).
 */
export function NewDueChargePage({ session }: { session: Session }) {
  const { form, setForm, set, reference, problem, setProblem: setProblemState } = useCreateForm(EMPTY, newReference);
  const setProblem = (next: ApiProblem | undefined) => setProblemState(besideItsInput(next));
  const create = $api.useMutation('post', '/dashboard/api/v1/due-charges');
  const invalidate = useInvalidate();
  const today = saoPauloDate();

  if (!may(session, 'createDashboardDueCharge')) {
    return (
      <>
        <h1>Nova cobrança com vencimento</h1>
        <p className="warning">Cobranças pelo painel são criadas pelo proprietário, por administradores ou por desenvolvedores da conta.</p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="#/cobrancas-com-vencimento">← Cobranças com vencimento</a>
      </p>
      <h1>Nova cobrança com vencimento</h1>
      <p className="muted">O Pix que substitui o boleto: o banco do pagador calcula o valor do dia, com multa e juros depois do vencimento e desconto antes dele.</p>
      {session.account.kycStatus !== 'approved' ? <p className="warning">Cobranças exigem a conta aprovada pela equipe PixGate (KYC).</p> : null}
      <ActionForm
        label="Criar cobrança com vencimento"
        fields={FIELDS}
        problem={problem}
        onProblem={setProblem}
        action={() =>
          sendRequest(requestOf(form, reference), (body) => create.mutateAsync({ body }), async (charge) => {
            await invalidate('/dashboard/api/v1/due-charges', '/dashboard/api/v1/transactions', '/dashboard/api/v1/overview');
            navigate(`/cobrancas-com-vencimento/${charge.transactionId}?${charge.idempotent ? 'repetida' : 'criada'}=1`);
          })
        }
      >
        <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} hint="O valor no vencimento, antes de multa, juros e desconto: 1.234,56." />
        <div className="grid-2">
          <Field label="Vencimento" name="dueDate" type="date" min={today} max={addDays(today, 5 * 365)} value={form.dueDate} onChange={set('dueDate')} problem={problem} />
          <Field
            label="Dias para pagar após o vencimento"
            name="daysAfterDue"
            inputMode="numeric"
            value={form.daysAfterDue}
            onChange={set('daysAfterDue')}
            problem={problem}
            hint="Depois disso a cobrança expira. De 0 a 365; padrão 30."
          />
        </div>
        <Field
          label="Descrição (opcional)"
          name="description"
          value={form.description}
          onChange={set('description')}
          problem={problem}
          maxLength={140}
          hint="Mostrada ao pagador pelo banco dele; até 140 caracteres."
        />
        <ReferenceField
          value={form.reference}
          onChange={set('reference')}
          problem={problem}
          placeholder="mensalidade-2026-12-0042"
          hint="O número do pedido ou da fatura no seu sistema. A mesma referência em até 7 dias devolve a mesma cobrança."
        />
        <h2>Pagador</h2>
        <Field label="Nome do pagador" name="customer.name" value={form.name} onChange={set('name')} problem={problem} autoComplete="off" />
        <div className="grid-2">
          <PayerDocumentFields
            documentType={form.documentType}
            document={form.document}
            onDocumentType={(documentType) => setForm({ ...form, documentType })}
            onDocument={(document) => setForm({ ...form, document })}
            problem={problem}
          />
        </div>
        <details className="filters-panel">
          <summary>Endereço do pagador (opcional)</summary>
          <Field label="Endereço do pagador (rua e número)" name="customer.address.street" value={form.street} onChange={set('street')} problem={problem} autoComplete="off" />
          <div className="grid-2">
            <Field label="Cidade do pagador" name="customer.address.city" value={form.city} onChange={set('city')} problem={problem} autoComplete="off" />
            <SelectField label="UF do pagador" name="customer.address.state" value={form.state} onChange={(state) => setForm({ ...form, state })} problem={problem} options={UF_OPTIONS} />
            <Field label="CEP do pagador" name="customer.address.postalCode" inputMode="numeric" value={form.postalCode} onChange={set('postalCode')} problem={problem} placeholder="01001-000" />
          </div>
        </details>
        <h2>Multa, juros e desconto (opcionais)</h2>
        <div className="grid-2">
          <Field label="Multa (%)" name="fine" inputMode="decimal" value={form.fine} onChange={set('fine')} problem={problem} placeholder="2" hint="Uma vez, se pago depois do vencimento." />
          <Field label="Juros ao mês (%)" name="interest" inputMode="decimal" value={form.interest} onChange={set('interest')} problem={problem} placeholder="1" hint="Por dia de atraso, proporcionais ao mês de 30 dias." />
          <MoneyField label="Desconto (R$)" name="discount" value={form.discount} onChange={(discount) => setForm({ ...form, discount })} problem={problem} hint="Para quem paga até a data abaixo." />
          <Field label="Desconto até" name={DISCOUNT_DATE_FIELD} type="date" min={today} max={form.dueDate || undefined} value={form.discountUntil} onChange={set('discountUntil')} problem={problem} />
          <MoneyField label="Abatimento (R$)" name="rebate" value={form.rebate} onChange={(rebate) => setForm({ ...form, rebate })} problem={problem} hint="Descontado em qualquer data de pagamento." />
        </div>
      </ActionForm>
    </>
  );
}
