import type { ApiProblem } from '../../../shared/api.ts';
import { parseBrl } from '../../../shared/money.ts';
import { navigate } from '../../../shared/router.ts';
import { ActionForm, Field, MoneyField, SelectField } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { useInvalidate } from '../data.ts';
import { ReferenceField, sendRequest, useCreateForm } from '../forms.tsx';
import { may } from '../roles.ts';

type Body = Schemas['CreateStaticQrCodeRequest'];

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot create two codes. */
const newReference = () => `qr-painel-${crypto.randomUUID()}`;

/** What fits the QR code beside PixGate's key (the server says less on an installation with a long e-mail key). */
const DESCRIPTION_MAX = 37;

const EMPTY = { kind: 'fixed', amount: '', description: '', reference: '' };
type Form = typeof EMPTY;

const FIELDS = ['amountCents', 'description', 'externalRef'];

/** The request from what was typed, or the problem of the first field the page can tell is wrong. */
function requestOf(form: Form, reference: string): { body: Body } | { problem: ApiProblem } {
  let amountCents: number | undefined;
  if (form.kind === 'fixed') {
    amountCents = parseBrl(form.amount);
    if (amountCents === undefined) return { problem: { error: 'Valor: informe o valor em reais, por exemplo 15,00; ou escolha valor livre.', field: 'amountCents' } };
  }
  const description = form.description.trim();
  return {
    body: {
      ...(amountCents !== undefined ? { amountCents } : {}),
      ...(description ? { description } : {}),
      // The merchant's own reference when typed; else the form's (idempotent as the API is).
      externalRef: form.reference.trim() || reference,
    },
  };
}

/**
 * "Novo QR code estático": POST /dashboard/api/v1/static-qrcodes, exactly POST /v1/static-qrcodes (rules,
 * limits, messages), with the form's own externalRef. The created code opens on its page (QR code, copy
 * and paste, downloads).
 */
export function NewStaticQrCodePage({ session }: { session: Session }) {
  const { form, setForm, set, reference, problem, setProblem } = useCreateForm(EMPTY, newReference);
  const create = $api.useMutation('post', '/dashboard/api/v1/static-qrcodes');
  const invalidate = useInvalidate();

  if (!may(session, 'createDashboardStaticQrCode')) {
    return (
      <>
        <h1>Novo QR code estático</h1>
        <p className="warning">QR codes estáticos são criados pelo proprietário, por administradores ou por desenvolvedores da conta.</p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="#/qr-codes-estaticos">← QR codes estáticos</a>
      </p>
      <h1>Novo QR code estático</h1>
      <p className="muted">Um QR code que não expira e recebe quantos pagamentos vierem, enquanto estiver ativo.</p>
      {session.account.kycStatus !== 'approved' ? <p className="warning">QR codes exigem a conta aprovada pela equipe PixGate (KYC).</p> : null}
      <ActionForm
        label="Criar QR code"
        fields={FIELDS}
        problem={problem}
        onProblem={setProblem}
        action={() =>
          sendRequest(requestOf(form, reference), (body) => create.mutateAsync({ body }), async (code) => {
            await invalidate('/dashboard/api/v1/static-qrcodes');
            navigate(`/qr-codes-estaticos/${code.staticQrCodeId}?${code.idempotent ? 'repetido' : 'criado'}=1`);
          })
        }
      >
        <SelectField
          label="Tipo de valor"
          name="kind"
          value={form.kind}
          onChange={(kind) => setForm({ ...form, kind })}
          options={[
            { value: 'fixed', label: 'Valor definido: todo pagamento é deste valor' },
            { value: 'open', label: 'Valor livre: o pagador digita o valor' },
          ]}
        />
        {form.kind === 'fixed' ? (
          <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} hint="1.234,56" />
        ) : null}
        <Field
          label="Descrição (opcional)"
          name="description"
          value={form.description}
          onChange={set('description')}
          problem={problem}
          maxLength={DESCRIPTION_MAX}
          autoComplete="off"
          placeholder="Caixa 1"
          hint={`Mostrada ao pagador pelo banco dele; até ${DESCRIPTION_MAX} caracteres, sem acentos no QR code.`}
        />
        <ReferenceField
          value={form.reference}
          onChange={set('reference')}
          problem={problem}
          placeholder="loja-centro-caixa-1"
          hint="Um nome seu para este QR code. A mesma referência devolve sempre o mesmo QR code."
        />
      </ActionForm>
    </>
  );
}
