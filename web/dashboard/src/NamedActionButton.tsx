import { useRef, useState } from 'react';

/**
 * ActionButton (web/shared/ui.tsx) with an accessible name of its own, for a row's action ("Reenviar" of one
 * delivery among many): disabled while its request runs, so a double click sends once.
 */
export function NamedActionButton(props: { label: string; name: string; onClick: () => Promise<unknown>; className?: string }) {
  const [busy, setBusy] = useState(false);
  // A second click can arrive before the disabled button is rendered: the ref refuses it at once.
  const running = useRef(false);
  const click = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await props.onClick();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <button type="button" className={props.className} aria-label={props.name} disabled={busy} aria-busy={busy || undefined} onClick={() => void click()}>
      {busy ? 'Aguarde…' : props.label}
    </button>
  );
}
