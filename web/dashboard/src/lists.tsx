import { useState, type ReactNode } from 'react';
import { problemOf } from '../../shared/api.ts';
import { FormProblem, QueryState } from '../../shared/ui.tsx';

/** Real pages of a keyset list: the cursor of each page kept, so "Anterior" goes back. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursors,
    setCursors,
    cursor: cursors[cursors.length - 1],
    /** Another filter starts again from the first page. */
    restart: () => setCursors([undefined]),
  };
}

/** "← Anterior", the page's number and "Próxima →" (when the list has a next page). */
export function PageNav({ pages, nextCursor }: { pages: ReturnType<typeof useCursorPages>; nextCursor: string | undefined }) {
  const { cursors, setCursors } = pages;
  return (
    <nav className="actions" aria-label="Páginas">
      <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
        ← Anterior
      </button>
      <span className="muted">Página {cursors.length}</span>
      <button type="button" className="secondary" disabled={!nextCursor} onClick={() => nextCursor && setCursors([...cursors, nextCursor])}>
        Próxima →
      </button>
    </nav>
  );
}

/** A list under its filters: when a filter is refused (its message is beside it) a pointer to it, else the list's query state. */
export function ListState(props: { filterProblem: boolean; query: { error: unknown; isPending: boolean }; children: ReactNode }) {
  if (props.filterProblem) return <FormProblem problem={{ error: 'Corrija o filtro indicado acima.' }} />;
  return (
    <QueryState isPending={props.query.isPending} error={props.query.error}>
      {props.children}
    </QueryState>
  );
}

/**
 * The way back to a list, then one item of it: "not found" (an id no item of the account has, or the server's
 * `notFoundMessage`), the item, or its loading state under `title`.
 */
export function DetailFrame<T>(props: {
  back: { href: string; label: string };
  title: string;
  notFound: { title: string; message: string; none: string };
  id: string;
  valid: boolean;
  query: { data: T | undefined; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
}) {
  const { query, id } = props;
  const notFound = !props.valid || (query.error !== null && problemOf(query.error).error === props.notFound.message);
  return (
    <>
      <p>
        <a href={props.back.href}>← {props.back.label}</a>
      </p>
      {notFound ? (
        <>
          <h1>{props.notFound.title}</h1>
          <p>
            {props.notFound.none} desta conta tem o identificador <code className="wrap-anywhere">{id}</code>.
          </p>
        </>
      ) : query.data ? (
        props.children(query.data)
      ) : (
        <>
          <h1>{props.title}</h1>
          <QueryState isPending={query.isPending} error={query.error} />
        </>
      )}
    </>
  );
}
