import { expect } from 'vitest';
import type { components } from '../../generated/admin-types.ts';
import { consoleBrowser, totpNow } from './dashboardClient.ts';
import type { Gateway } from './gateway.ts';

type OperatorRole = components['schemas']['OperatorRole'];

export interface SignedInOperator {
  browser: ReturnType<typeof consoleBrowser>;
  /** The base32 seed enrolled at the first sign-in. */
  secret: string;
  operatorId: string;
  email: string;
  name: string;
  password: string;
  roles: OperatorRole[];
}

/** The password every test operator chooses in place of the temporary one (zxcvbn-ts score 4). */
export const OPERATOR_PASSWORD = 'lanterna violeta cruza o rio 42';

/**
 * Creates an operator with the automation token and signs them in through the console as a person does:
 * password (the temporary one), then TOTP enrolment with a first code, then the change of the temporary
 * password.
 */
export async function signedInOperator(gateway: Gateway, email: string, name: string, roles: OperatorRole[]): Promise<SignedInOperator> {
  const created = await gateway.admin.POST('/admin/v1/operators', { body: { email, name, roles } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const browser = consoleBrowser(gateway);
  const signIn = await browser.api.POST('/admin/v1/session', { body: { email, password: created.data.temporaryPassword } });
  expect(signIn.data?.stage).toBe('enrol');
  const setup = await browser.api.POST('/admin/v1/session/totp/setup');
  const secret = setup.data?.secret ?? '';
  gateway.clock.advance(30_000);
  const done = await browser.api.POST('/admin/v1/session/totp', { body: { totpCode: totpNow(gateway, secret) } });
  expect(done.data?.stage).toBe('complete');
  // The temporary password must be changed before anything else (issue 22).
  const changed = await browser.api.POST('/admin/v1/session/password', { body: { currentPassword: created.data.temporaryPassword, newPassword: OPERATOR_PASSWORD } });
  expect(changed.data?.passwordChangeRequired).toBe(false);
  return { browser, secret, operatorId: created.data.operator.operatorId, email, name, password: OPERATOR_PASSWORD, roles };
}
