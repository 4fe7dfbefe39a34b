import { useState, type ReactNode } from 'react';
import type { ApiProblem } from './api.ts';
import { CopyButton, Field } from './ui.tsx';

/**
 * What a phone needs that a desktop does not (issue 38, defect 10): the right keyboard for each field, a
 * way to enrol the authenticator app of the same phone (which cannot scan its own screen), and copies that
 * say they happened.
 */

/** The key in groups of four, as authenticator apps show it when it is typed. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Enrolment of an authenticator app: the QR code (for another device), and, for the app on this same
 * phone, a link that opens it (`otpauth:`) and the key to copy or type.
 */
export function TotpEnrolment({ setup, children }: { setup: { otpauthUri: string; qrSvg: string; secret: string }; children?: ReactNode }) {
  return (
    <div className="totp-enrolment">
      <p>Leia o QR code com o aplicativo autenticador (Google Authenticator, Authy, 1Password…) de outro aparelho.</p>
      <div className="qr">
        <img alt="QR code para o aplicativo autenticador" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} />
      </div>
      <p>No celular em que o aplicativo está:</p>
      <p className="actions">
        <a className="button" href={setup.otpauthUri}>
          Abrir no aplicativo autenticador
        </a>
      </p>
      <p>
        Ou copie a chave e cole no aplicativo (“inserir chave de configuração”, tipo “baseada em tempo”):
      </p>
      <p>
        <code className="secret-value" data-testid="totp-secret" aria-label="Chave do aplicativo autenticador">
          {groupedSecret(setup.secret)}
        </code>
      </p>
      <p className="actions">
        <CopyButton className="secondary" text={setup.secret} label="Copiar chave" done="Chave copiada" />
      </p>
      {children}
    </div>
  );
}

/** The keyboard for a Pix key of each type: digits for a CPF or CNPJ, the phone pad, the e-mail keyboard. */
export function pixKeyInput(pixKeyType: string): { inputMode: 'numeric' | 'tel' | 'email' | 'text'; autoCapitalize: 'off' } {
  const inputMode = pixKeyType === 'cpf' || pixKeyType === 'cnpj' ? 'numeric' : pixKeyType === 'phone' ? 'tel' : pixKeyType === 'email' ? 'email' : 'text';
  return { inputMode, autoCapitalize: 'off' };
}

/**
 * A CPF or CNPJ field with a numeric keyboard. A CNPJ may have letters since July 2026 (the alphanumeric
 * CNPJ): its field offers the full keyboard on request ("Meu CNPJ tem letras"), in capitals.
 */
export function DocumentField(props: {
  label: string;
  name: string;
  kind: 'cpf' | 'cnpj';
  value: string;
  onChange: (value: string) => void;
  problem: ApiProblem | undefined;
}) {
  const [letters, setLetters] = useState(props.kind === 'cnpj' && /[A-Za-z]/.test(props.value));
  return (
    <div className="document-field">
      <Field
        label={props.label}
        name={props.name}
        value={props.value}
        inputMode={letters ? 'text' : 'numeric'}
        autoCapitalize={letters ? 'characters' : 'off'}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.kind === 'cpf' ? '000.000.000-00' : letters ? '12.ABC.345/01DE-35' : '00.000.000/0000-00'}
        problem={props.problem}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.kind === 'cnpj' ? (
        <button type="button" className="link-button" onClick={() => setLetters(!letters)}>
          {letters ? 'Meu CNPJ só tem números' : 'Meu CNPJ tem letras'}
        </button>
      ) : null}
    </div>
  );
}
