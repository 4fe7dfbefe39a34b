import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { GuessablePassword, PasswordLength } from './identity.errors.ts';
import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS } from './passwords.ts';

/**
 * The strength rule of every password that is chosen (merchant sign-up, reset, invitation, change; an
 * operator's change of a temporary password): 10 to 128 characters, not the e-mail itself, and a score of
 * at least 3 of 4 from zxcvbn-ts (about 10^8 guesses or more: "safely unguessable" against an online attack
 * and costly offline against scrypt) with the common and the Brazilian Portuguese dictionaries, the
 * person's own e-mail, name and company name counting as known words. `aaaaaaaaaa`, `1234567890`,
 * `senha12345` and ten spaces score 0 or 1; a passphrase of three or four words scores 4.
 *
 * The dictionaries (a few MB) are loaded once, on the first password checked, not at start-up and not per
 * request.
 */
export const PASSWORD_MIN_SCORE = 3;

export type PasswordProblem =
  | { kind: 'length' }
  | { kind: 'guessable'; warning: string | undefined; suggestion: string | undefined };

let estimator: Promise<ZxcvbnFactory> | undefined;

function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, ptBr, { PASSWORD_FEEDBACK }] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-pt-br'),
      import('./passwordFeedback.ts'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...ptBr.dictionary },
      graphs: common.adjacencyGraphs,
      translations: PASSWORD_FEEDBACK,
    });
  })();
  return estimator;
}

/**
 * Words every password of the product is built from when it is guessed first (issue 38, defect 9:
 * `pixgate2026`, the product's name and a year, was accepted): they count as known words for everyone.
 */
export const PRODUCT_WORDS: readonly string[] = ['pixgate', 'pix', 'gate', 'painel'];

/** The words of what the person typed about themselves: the e-mail whole and in parts, names whole and in words, and the product's. */
function userWords(inputs: readonly (string | null | undefined)[]): string[] {
  const words = new Set<string>(PRODUCT_WORDS);
  for (const input of inputs) {
    const value = input?.trim().toLowerCase();
    if (!value) continue;
    words.add(value);
    for (const part of value.split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/**
 * What is wrong with a password, or undefined when it may be used. `personal` is what the person is known
 * by (e-mail first, then names, company name): a password built from them is refused.
 */
export async function passwordProblem(password: string, personal: readonly (string | null | undefined)[]): Promise<PasswordProblem | undefined> {
  const length = [...password].length;
  const email = personal[0]?.trim().toLowerCase();
  if (length < PASSWORD_MIN_CHARS || length > PASSWORD_MAX_CHARS) return { kind: 'length' };
  if (email !== undefined && password.trim().toLowerCase() === email) return { kind: 'length' };
  const result = (await loadEstimator()).check(password, userWords(personal));
  if (result.score >= PASSWORD_MIN_SCORE) return undefined;
  return { kind: 'guessable', warning: result.feedback.warning ?? undefined, suggestion: result.feedback.suggestions[0] };
}

/** Refuses a password the rule does not accept: PasswordLength or GuessablePassword, about `field`. */
export async function requireStrongPassword(password: string, personal: readonly (string | null | undefined)[], field = 'password'): Promise<void> {
  const problem = await passwordProblem(password, personal);
  if (problem?.kind === 'length') throw new PasswordLength(field);
  if (problem?.kind === 'guessable') throw new GuessablePassword(field, problem);
}
