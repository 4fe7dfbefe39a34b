import type { ColumnType, Generated } from 'kysely';
import type { Json } from './json.ts';

/** The dashboard (merchant users), the mail outbox, the console (operators) and the audit log. */

export type DashboardRole = 'owner' | 'admin' | 'developer' | 'viewer';

export interface DashboardUsersTable {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: DashboardRole;
  /** Null for an invited user who has not chosen a password yet. */
  password_hash: string | null;
  email_verified_at: Date | null;
  /** The TOTP seed sealed with the secrets key (AES-256-GCM); set at enrolment, confirmed by `totp_enabled_at`. */
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  /** The time step of the last accepted code: a code is never accepted twice. */
  totp_last_step: number | null;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
  /** While the invitation is not accepted: when it stops being pending (migration 023); null once accepted. */
  invitation_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/**
 * An invitation of an e-mail that already has a user elsewhere (migration 017): shown to the inviting
 * account as a pending invitation, never a user, never a link.
 */
export interface DashboardInvitationPlaceholdersTable {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: DashboardRole;
  /** The user who invited. */
  invited_by: string;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
  /** When the invitation stops being pending, as a fresh one's (migration 023). */
  invitation_expires_at: Date;
}

/** Dashboard sign-in back-off (migration 021): failures per throttled subject (src/identity/signInBackoff.ts). */
export interface SignInFailuresTable {
  /** `<kind>:<truncated SHA-256>` of the e-mail, address, device, user or session. */
  subject: string;
  failures: number;
  last_failure_at: Date;
  blocked_until: Date | null;
  notified_at: Date | null;
}

export interface DashboardRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: Date | null;
}

export type SessionStage = 'password' | 'enrol' | 'complete';

export interface DashboardSessionsTable {
  token_hash: string;
  /** The session's public id (`ses_…`, migration 016): shown in the list of sessions, never the token. */
  id: string;
  user_id: string;
  stage: Exclude<SessionStage, 'enrol'>;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password' | 'invite';

export interface DashboardEmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface MailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: Date;
  sent_at: Date | null;
  error: string | null;
}

export type OperatorRole = 'support' | 'compliance' | 'finance' | 'admin';

export interface OperatorsTable {
  id: string;
  email: string;
  name: string;
  roles: ColumnType<OperatorRole[], string, string>;
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | null;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
  /** Set while the password is a temporary one chosen by someone else: it must be changed, and stops working then. */
  password_temporary_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface OperatorSessionsTable {
  token_hash: string;
  operator_id: string;
  /** 'enrol': the password was right and the operator must enrol TOTP (mandatory) before anything else. */
  stage: SessionStage;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
}

export type AuditActorType = 'operator' | 'automation' | 'system' | 'user';

export interface AuditLogTable {
  id: Generated<number>;
  at: Date;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  account_id: string | null;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
  request_id: string | null;
  ip: string | null;
}
