import { useEffect, useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { problemOf, type ApiProblem } from './api.ts';
import { formatBrl } from './format.ts';
import { brlInWords, maskBrl, parseBrl } from './money.ts';

/** A form field: its label, the input, and the server's message beside it when it is about this field. */
export function Field(
  props: { label: string; name: string; problem?: ApiProblem | undefined; hint?: string } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, name, problem, hint, 'aria-describedby': alsoDescribedBy, ...input } = props;
  const id = useId();
  const error = problem?.field === name ? problem.error : undefined;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : '', alsoDescribedBy ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} {...input} aria-describedby={described} />
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField(props: {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  problem?: ApiProblem | undefined;
  /** Named for screen readers only (a choice inside a list, whose column already says what it is). */
  labelHidden?: boolean;
}) {
  const id = useId();
  const error = props.problem?.field === props.name ? props.problem.error : undefined;
  return (
    <div className="field">
      <label htmlFor={id} className={props.labelHidden ? 'sr-only' : undefined}>
        {props.label}
      </label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The server's message when it is not about one of the form's own fields. */
export function FormProblem({ problem, fields = [] }: { problem: ApiProblem | undefined; fields?: string[] }) {
  if (!problem || (problem.field !== undefined && fields.includes(problem.field))) return null;
  return (
    <p className="form-error" role="alert">
      {problem.error}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}

/**
 * A form that calls the server: `action` returns a problem (shown beside its field, or above the button) or
 * nothing on success. The button is disabled while the request runs.
 */
export function ActionForm(props: {
  label: string;
  action: () => Promise<ApiProblem | undefined>;
  children?: ReactNode;
  fields?: string[];
  onProblem?: (problem: ApiProblem | undefined) => void;
  problem?: ApiProblem | undefined;
  secondary?: boolean;
  /** A second step is open (a confirmation): its "Cancelar" beside the button, for a phone, which has no Escape key (issue 38). */
  onCancel?: (() => void) | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const [ownProblem, setOwnProblem] = useState<ApiProblem>();
  const problem = props.problem ?? ownProblem;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const result = await props.action();
      setOwnProblem(result);
      props.onProblem?.(result);
    } catch {
      // No answer (network, server gone): nothing is known to have happened; sending again is safe where
      // the form carries its own idempotency reference.
      const lost = { error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.' };
      setOwnProblem(lost);
      props.onProblem?.(lost);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {props.children}
      <FormProblem problem={problem} fields={props.fields ?? []} />
      <div className="actions form-actions">
        <button type="submit" disabled={busy} className={props.secondary ? 'secondary' : undefined}>
          {busy ? 'Aguarde…' : props.label}
        </button>
        {props.onCancel ? (
          <button type="button" className="secondary" disabled={busy} onClick={props.onCancel}>
            Cancelar
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * A "Copiar" button that says what happened: "Copiado" (for a few seconds), or, when the browser refuses
 * the clipboard, that the text must be selected by hand.
 */
export function CopyButton({ text, label, done, className }: { text: string; label: string; done: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      window.setTimeout(() => setState('idle'), 4_000);
    } catch {
      setState('refused');
    }
  };
  return (
    <>
      <button type="button" className={className} onClick={() => void copy()}>
        {state === 'copied' ? done : label}
      </button>
      <span role="status" className="muted copy-status">
        {state === 'copied' ? `${done}.` : state === 'refused' ? 'Não foi possível copiar: selecione o texto e copie.' : ''}
      </span>
    </>
  );
}

/** A secret shown once: copy it now; it is not shown again. */
export function SecretOnce({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <section className="secret" aria-label={title}>
      <h3>{title}</h3>
      <p>
        <strong>Guarde agora: este segredo não será mostrado de novo.</strong>
      </p>
      <code className="secret-value" data-testid="secret-value">
        {secret}
      </code>
      <div className="actions">
        <CopyButton text={secret} label="Copiar" done="Copiado" />
        <button type="button" className="secondary" onClick={onDone}>
          Já guardei
        </button>
      </div>
    </section>
  );
}

/**
 * A button that asks for confirmation before an action that cannot be undone. Escape or "Cancelar" cancels
 * (focus returns to the button); "Confirmar" is disabled while the action runs, so a double click sends once.
 */
export function ConfirmButton(props: {
  label: string;
  confirm: ReactNode;
  onConfirm: () => Promise<unknown> | void;
  danger?: boolean;
  /** The action the page is for (an approval): the buttons in the brand's colour rather than grey and red. */
  primary?: boolean;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const cancel = () => {
    setAsking(false);
    // The opener is back once this render commits.
    queueMicrotask(() => opener.current?.focus());
  };
  if (!asking) {
    return (
      <button
        ref={opener}
        type="button"
        className={props.danger ? 'danger' : props.primary ? undefined : 'secondary'}
        disabled={props.disabled === true || busy}
        onClick={() => setAsking(true)}
      >
        {busy ? 'Aguarde…' : props.label}
      </button>
    );
  }
  const run = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <span
      role="group"
      aria-label={typeof props.confirm === 'string' ? props.confirm : props.label}
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !busy) {
          event.stopPropagation();
          cancel();
        }
      }}
    >
      {/* The question comes first, where the button was: the second half of a double click lands on it, never on "Confirmar". */}
      <span>{props.confirm}</span>
      <button ref={confirmRef} type="button" className={props.primary ? undefined : 'danger'} disabled={busy} onClick={() => void run()}>
        {busy ? 'Aguarde…' : 'Confirmar'}
      </button>
      <button type="button" className="secondary" disabled={busy} onClick={cancel}>
        Cancelar
      </button>
    </span>
  );
}

/** A button for a one-step action: disabled while its request runs, so a double click sends it once. */
export function ActionButton(props: {
  label: string;
  onClick: () => Promise<unknown>;
  className?: string;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const click = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await props.onClick();
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className={props.className} disabled={props.disabled === true || busy} aria-busy={busy || undefined} onClick={() => void click()}>
      {busy ? 'Aguarde…' : props.label}
    </button>
  );
}

/**
 * An amount in reais: typed the Brazilian way (`1.234,56`) through the mask of web/shared/money.ts, with the
 * value formatted and in words beside it, so what will be sent is read before it is confirmed.
 */
export function MoneyField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  problem?: ApiProblem | undefined;
  hint?: string;
  required?: boolean;
}) {
  const cents = props.value.trim() === '' ? undefined : parseBrl(props.value);
  const id = useId();
  return (
    <div className="money-field">
      <Field
        label={props.label}
        name={props.name}
        value={props.value}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0,00"
        required={props.required}
        problem={props.problem}
        aria-describedby={`${id}-words`}
        {...(props.hint ? { hint: props.hint } : {})}
        onChange={(event) => props.onChange(maskBrl(event.target.value))}
      />
      <p id={`${id}-words`} className="hint money-words" aria-live="polite" data-testid={`${props.name}-in-words`}>
        {cents === undefined ? (props.value.trim() === '' ? '' : 'Valor inválido: use 1.234,56.') : `${formatBrl(cents)}: ${brlInWords(cents)}`}
      </p>
    </div>
  );
}

/** An amount as `R$ 1.234,56` that never breaks between `R$` and the number (`.money` is `white-space: nowrap`). */
export function Money({ cents }: { cents: number }) {
  return <span className="money">{formatBrl(cents)}</span>;
}

/** Where a query's data would be: "Carregando…", or the server's message (never an empty list for an error). */
export function QueryState(props: { isPending: boolean; error: unknown; children?: ReactNode }) {
  if (props.error) return <p className="form-error" role="alert">{problemOf(props.error).error}</p>;
  if (props.isPending) return <Loading />;
  return <>{props.children}</>;
}

export function Status({ value, label }: { value: string; label: string }) {
  return <span className={`status status-${value}`}>{label}</span>;
}

export function Loading() {
  return (
    <p role="status" aria-live="polite">
      Carregando…
    </p>
  );
}
