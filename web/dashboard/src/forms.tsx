import { useState } from 'react';
import type { ApiProblem } from '../../shared/api.ts';
import { DocumentField } from '../../shared/phone.tsx';
import { Field, SelectField } from '../../shared/ui.tsx';
import { attempt } from './data.ts';

/**
 * The state of a form that creates something: what was typed (`set(field)` for an input's onChange), the
 * problem shown, and the reference of this attempt, sent as the externalRef when the merchant typed none, so
 * sending again (a double click, a lost answer) cannot create two.
 */
export function useCreateForm<Form extends Record<string, string>>(empty: Form, newReference: () => string) {
  const [form, setForm] = useState(empty);
  const [reference, setReference] = useState(newReference);
  const [problem, setProblem] = useState<ApiProblem>();
  const set = (field: keyof Form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  return { form, setForm, set, reference, setReference, problem, setProblem };
}

/**
 * A form's action: the problem the page found in what was typed, or the server's answer to `send(body)`;
 * once sent, `then` with what the server answered.
 */
export async function sendRequest<Body, Answer>(
  request: { body: Body } | { problem: ApiProblem },
  send: (body: Body) => Promise<Answer>,
  then: (answer: Answer) => Promise<void>,
): Promise<ApiProblem | undefined> {
  if ('problem' in request) return request.problem;
  const sent = await attempt(() => send(request.body));
  if (!sent.ok) return sent.problem;
  await then(sent.data);
  return undefined;
}

/** "Sua referência (opcional)": the merchant's own externalRef. */
export function ReferenceField(props: { value: string; onChange: (event: { target: { value: string } }) => void; problem: ApiProblem | undefined; placeholder: string; hint: string }) {
  return (
    <Field
      label="Sua referência (opcional)"
      name="externalRef"
      value={props.value}
      onChange={props.onChange}
      problem={props.problem}
      maxLength={100}
      autoComplete="off"
      placeholder={props.placeholder}
      hint={props.hint}
    />
  );
}

/** The payer's document: its type (CPF or CNPJ), then the number masked as that type; `at` is the request's payer object (`customer`, or `payer` for a recurrence). */
export function PayerDocumentFields(props: {
  at?: 'customer' | 'payer';
  documentType: string;
  document: string;
  onDocumentType: (documentType: string) => void;
  onDocument: (document: string) => void;
  problem: ApiProblem | undefined;
}) {
  return (
    <>
      <SelectField
        label="Tipo de documento do pagador"
        name={`${props.at ?? 'customer'}.document.type`}
        value={props.documentType}
        onChange={props.onDocumentType}
        problem={props.problem}
        options={[
          { value: 'cpf', label: 'CPF' },
          { value: 'cnpj', label: 'CNPJ' },
        ]}
      />
      <DocumentField
        key={props.documentType}
        label="CPF ou CNPJ do pagador"
        name={`${props.at ?? 'customer'}.document.number`}
        kind={props.documentType === 'cnpj' ? 'cnpj' : 'cpf'}
        value={props.document}
        onChange={props.onDocument}
        problem={props.problem}
      />
    </>
  );
}
