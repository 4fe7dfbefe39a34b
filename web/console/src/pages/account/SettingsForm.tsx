import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { formatBrl } from '../../../../shared/format.ts';
import { maskBrl, parseBrl } from '../../../../shared/money.ts';
import { ActionForm, Field, MoneyField, SelectField } from '../../../../shared/ui.tsx';
import { $api, type Schemas } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section } from './Section.tsx';

type Account = Schemas['Account'];
type MoneyKey = 'chargeFeeFixedCents' | 'withdrawalFeeFixedCents' | 'withdrawalMaxCents' | 'withdrawalDailyCapCents' | 'withdrawalMonthlyCapCents';
type CountKey = 'chargeFeeBps' | 'withdrawalFeeBps' | 'chargeRatePerHour' | 'withdrawalsPerHour' | 'recipientLimit' | 'recipientsPerHour';

/** A setting of the account: an amount in reais (typed `50.000` = R$ 50.000,00) or a count. */
export type Setting = { kind: 'money'; key: MoneyKey; label: string } | { kind: 'count'; key: CountKey; label: string };

/** Cents as the money field shows them: `5000000` → `50.000,00`. */
const asTyped = (cents: number) => maskBrl((cents / 100).toFixed(2).replace('.', ','));

/**
 * A section of settings edited together (fees, limits): the money ones with the money field (mask and value in
 * words), the counts as integers; only what changed is sent; read-only for operators who may not change them.
 */
export function SettingsForm(props: {
  title: string;
  account: Account;
  settings: Setting[];
  canUpdate: boolean;
  saveLabel: string;
  savedMessage: string;
  withApprovalMode?: boolean;
  onChanged: (message: string) => void;
}) {
  const { account, settings } = props;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(settings.map((setting) => [setting.key, setting.kind === 'money' ? asTyped(account[setting.key]) : String(account[setting.key])])),
  );
  const [approvalMode, setApprovalMode] = useState<string>(account.withdrawalApprovalMode);
  const [problem, setProblem] = useState<ApiProblem>();
  const invalidate = useInvalidate();
  const mutation = $api.useMutation('patch', '/admin/v1/accounts/{accountId}');

  if (!props.canUpdate) {
    return (
      <Section title={props.title}>
        <ul>
          {settings.map((setting) => (
            <li key={setting.key}>
              {setting.label.replace(' (R$)', '')}: {setting.kind === 'money' ? formatBrl(account[setting.key]) : account[setting.key]}
            </li>
          ))}
          {props.withApprovalMode ? <li>Aprovação de saques: {account.withdrawalApprovalMode === 'manual' ? 'manual' : 'automática'}</li> : null}
        </ul>
      </Section>
    );
  }
  return (
    <Section title={props.title}>
      <ActionForm
        label={props.saveLabel}
        fields={[...settings.map((setting) => setting.key), 'withdrawalApprovalMode']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const body: Schemas['UpdateAccountRequest'] = {};
          for (const setting of settings) {
            const text = (values[setting.key] ?? '').trim();
            if (setting.kind === 'money') {
              const cents = parseBrl(text);
              if (cents === undefined) return { error: `${setting.label}: informe um valor em reais, por exemplo 1.000,00.`, field: setting.key };
              if (cents !== account[setting.key]) body[setting.key] = cents;
            } else {
              if (!/^\d+$/.test(text)) return { error: `${setting.label}: informe um número inteiro.`, field: setting.key };
              if (Number(text) !== account[setting.key]) body[setting.key] = Number(text);
            }
          }
          if (props.withApprovalMode && approvalMode !== account.withdrawalApprovalMode) body.withdrawalApprovalMode = approvalMode as Account['withdrawalApprovalMode'];
          if (Object.keys(body).length === 0) return { error: 'Nada mudou.' };
          const result = await outcome(() => mutation.mutateAsync({ params: { path: { accountId: account.accountId } }, body }));
          if (result.problem) return result.problem;
          // What the server kept, as the field shows it.
          setValues(Object.fromEntries(settings.map((setting) => [setting.key, setting.kind === 'money' ? asTyped(result.data[setting.key]) : String(result.data[setting.key])])));
          await invalidate('/admin/v1/accounts/{accountId}', '/admin/v1/accounts', '/admin/v1/audit-log');
          props.onChanged(props.savedMessage);
          return undefined;
        }}
      >
        <div className="grid-2">
          {settings.map((setting) =>
            setting.kind === 'money' ? (
              <MoneyField key={setting.key} label={setting.label} name={setting.key} value={values[setting.key] ?? ''} onChange={(value) => setValues({ ...values, [setting.key]: value })} problem={problem} />
            ) : (
              <Field
                key={setting.key}
                label={setting.label}
                name={setting.key}
                inputMode="numeric"
                value={values[setting.key] ?? ''}
                onChange={(event) => setValues({ ...values, [setting.key]: event.target.value })}
                problem={problem}
              />
            ),
          )}
          {props.withApprovalMode ? (
            <SelectField
              label="Aprovação de saques"
              name="withdrawalApprovalMode"
              value={approvalMode}
              onChange={setApprovalMode}
              problem={problem}
              options={[
                { value: 'automatic', label: 'Automática' },
                { value: 'manual', label: 'Manual (fila de aprovação)' },
              ]}
            />
          ) : null}
        </div>
      </ActionForm>
    </Section>
  );
}
