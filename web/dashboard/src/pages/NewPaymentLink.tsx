import type { ApiProblem } from '../../../shared/api.ts';
import { parseBrl } from '../../../shared/money.ts';
import { navigate } from '../../../shared/router.ts';
import { ActionForm, Field, MoneyField, SelectField } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { useInvalidate } from '../data.ts';
import { ReferenceField, sendRequest, useCreateForm } from '../forms.tsx';
import { may } from '../roles.ts';

type Body = Schemas['CreatePaymentLinkRequest'];

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot create two links. */
const newReference = () => `link-painel-${crypto.randomUUID()}`;

const EMPTY = { amount: '', description: '', reusable: 'false', expiresInDays: '', reference: '' };
type Form = typeof EMPTY;

/** Every input of the form by the request field its messages name (so none is repeated above the button). */
const FIELDS = ['amountCents', 'description', 'reusable', 'expiresInDays', 'externalRef'];

/** The request from what was typed, or the problem of the first field the page can tell is wrong. */
function requestOf(form: Form, reference: string): { body: Body } | { problem: ApiProblem } {
  const amountCents = parseBrl(form.amount);
  if (amountCents === undefined) return { problem: { error: 'Valor: informe o valor em reais, por exemplo 49,90.', field: 'amountCents' } };
  // A description of spaces only is none (the server would say only that its format is invalid).
  if (form.description.trim() === '') return { problem: { error: 'Descrição: campo obrigatório.', field: 'description' } };
  const days = form.expiresInDays.trim();
  if (days !== '' && !/^\d{1,4}$/.test(days)) return { problem: { error: 'Validade (dias): informe um número inteiro de 1 a 365, ou deixe em branco.', field: 'expiresInDays' } };
  return {
    body: {
      amountCents,
      description: form.description.trim(),
      reusable: form.reusable === 'true',
      ...(days === '' ? {} : { expiresInDays: Number(days) }),
      // The merchant's own reference when typed; else the form's (idempotent as the API is).
      externalRef: form.reference.trim() || reference,
    },
  };
}

/**
 * "Novo link de pagamento": POST /dashboard/api/v1/payment-links, exactly POST /v1/payment-links (rules,
 * limits, messages), with the form's own externalRef. The created link opens on its page (address, copy,
 * WhatsApp).
 */
export function NewPaymentLinkPage({ session }: { session: Session }) {
  const { form, setForm, set, reference, problem, setProblem } = useCreateForm(EMPTY, newReference);
  const create = $api.useMutation('post', '/dashboard/api/v1/payment-links');
  const invalidate = useInvalidate();

  if (!may(session, 'createDashboardPaymentLink')) {
    return (
      <>
        <h1>Novo link de pagamento</h1>
        <p className="warning">Links de pagamento são criados pelo proprietário, por administradores ou por desenvolvedores da conta.</p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="#/links-de-pagamento">← Links de pagamento</a>
      </p>
      <h1>Novo link de pagamento</h1>
      <p className="muted">Quem abre o link vê o nome da sua empresa, o valor e a descrição, e paga com Pix (QR code ou copia e cola).</p>
      {session.account.kycStatus !== 'approved' ? <p className="warning">Links de pagamento exigem a conta aprovada pela equipe PixGate (KYC).</p> : null}
      <ActionForm
        label="Criar link de pagamento"
        fields={FIELDS}
        problem={problem}
        onProblem={setProblem}
        action={() =>
          sendRequest(requestOf(form, reference), (body) => create.mutateAsync({ body }), async (link) => {
            await invalidate('/dashboard/api/v1/payment-links');
            navigate(`/links-de-pagamento/${link.linkId}?${link.idempotent ? 'repetido' : 'criado'}=1`);
          })
        }
      >
        <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} hint="O valor de cada pagamento; o pagador não pode mudá-lo." />
        <Field
          label="Descrição"
          name="description"
          value={form.description}
          onChange={set('description')}
          problem={problem}
          maxLength={140}
          autoComplete="off"
          placeholder="Camiseta azul, tamanho M"
          hint="O que está sendo pago, mostrado ao pagador; até 140 caracteres."
        />
        <div className="grid-2">
          <SelectField
            label="Uso do link"
            name="reusable"
            value={form.reusable}
            onChange={(reusable) => setForm({ ...form, reusable })}
            problem={problem}
            options={[
              { value: 'false', label: 'Uso único (um pagamento)' },
              { value: 'true', label: 'Reutilizável (vários pagamentos)' },
            ]}
          />
          <Field
            label="Validade (dias)"
            name="expiresInDays"
            inputMode="numeric"
            value={form.expiresInDays}
            onChange={set('expiresInDays')}
            problem={problem}
            placeholder="7"
            hint="De 1 a 365. Em branco, o link não expira."
          />
        </div>
        <ReferenceField
          value={form.reference}
          onChange={set('reference')}
          problem={problem}
          placeholder="pedido-8812"
          hint="O número do pedido no seu sistema. A mesma referência devolve o mesmo link."
        />
      </ActionForm>
    </>
  );
}
