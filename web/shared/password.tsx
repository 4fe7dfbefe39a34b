import { useState } from 'react';
import type { ApiProblem } from './api.ts';
import { Field } from './ui.tsx';

/**
 * The password change both applications offer (issue 22): the current password and the new one twice, with
 * the rule the server applies (web/shared keeps the form; each application sends it to its own API).
 */
export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  repeated: string;
}

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', repeated: '' };

/** The form's values, a setter per field, the check that both new passwords match, and a reset after success. */
export function usePasswordChange() {
  const [value, setValue] = useState<PasswordChange>(EMPTY);
  return {
    value,
    set: (field: keyof PasswordChange, text: string) => setValue((current) => ({ ...current, [field]: text })),
    mismatch: (): ApiProblem | undefined =>
      value.newPassword === value.repeated ? undefined : { error: 'As duas senhas novas não são iguais.', field: 'repeatPassword' },
    reset: () => setValue(EMPTY),
  };
}

export const PASSWORD_CHANGE_FIELDS = ['currentPassword', 'newPassword', 'repeatPassword'];

export function PasswordChangeFields({ form, problem }: { form: ReturnType<typeof usePasswordChange>; problem: ApiProblem | undefined }) {
  return (
    <>
      <Field label="Senha atual" name="currentPassword" type="password" autoComplete="current-password" required value={form.value.currentPassword} onChange={(event) => form.set('currentPassword', event.target.value)} problem={problem} />
      <Field
        label="Nova senha"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        maxLength={128}
        hint="De 10 a 128 caracteres, difícil de adivinhar: uma frase de três ou quatro palavras funciona bem."
        value={form.value.newPassword}
        onChange={(event) => form.set('newPassword', event.target.value)}
        problem={problem}
      />
      <Field label="Repita a nova senha" name="repeatPassword" type="password" autoComplete="new-password" required value={form.value.repeated} onChange={(event) => form.set('repeated', event.target.value)} problem={problem} />
    </>
  );
}
