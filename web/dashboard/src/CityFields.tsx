import { getStates } from '@brazilian-utils/brazilian-utils/get-states';
import { useEffect, useId, useState } from 'react';
import type { ApiProblem } from '../../shared/api.ts';
import { Field, SelectField } from '../../shared/ui.tsx';
import type { Schemas } from './api.ts';

export type StateCode = Schemas['StateCode'];

const STATE_OPTIONS = [
  { value: '', label: 'Escolha o estado' },
  ...getStates().map((state) => ({ value: state.code, label: `${state.name} (${state.code})` })),
];

/**
 * The municipalities of a UF for the city field's suggestions, loaded when a UF is chosen: the IBGE's list
 * (about 50 KB compressed) is a chunk of its own, so the pages that do not ask a city never load it.
 */
function useMunicipalities(state: string): string[] {
  const [names, setNames] = useState<{ state: string; names: string[] }>({ state: '', names: [] });
  useEffect(() => {
    if (!state) return;
    let current = true;
    void import('@brazilian-utils/brazilian-utils/get-municipalities').then(({ getMunicipalities }) => {
      if (current) setNames({ state, names: getMunicipalities(state as StateCode).map((municipality) => municipality.name) });
    });
    return () => {
      current = false;
    };
  }, [state]);
  return names.state === state ? names.names : [];
}

/**
 * The merchant's city and its UF (issue 38, defect 12): the UF from a list, the city typed with the UF's
 * municipalities as suggestions; the server checks it against the same list and answers beside the field.
 */
export function CityFields(props: {
  city: string;
  state: string;
  onChange: (value: { city: string; state: string }) => void;
  problem: ApiProblem | undefined;
}) {
  const listId = useId();
  const municipalities = useMunicipalities(props.state);
  return (
    <div className="grid-2">
      <SelectField
        label="Estado (UF)"
        name="state"
        value={props.state}
        options={STATE_OPTIONS}
        problem={props.problem}
        onChange={(state) => props.onChange({ city: props.city, state })}
      />
      <Field
        label="Cidade"
        name="city"
        value={props.city}
        list={listId}
        autoComplete="address-level2"
        hint="O município da empresa: é a cidade que aparece no Pix de quem paga."
        problem={props.problem}
        onChange={(event) => props.onChange({ city: event.target.value, state: props.state })}
      />
      <datalist id={listId}>
        {municipalities.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}
