/**
 * Scripted failures: each rule applies to the next `count` requests of its operation (in the order the
 * rules were added), then it is gone. The HTTP layer and the callback sender ask `take` once per request or
 * delivery attempt.
 */
import { FAULT_MODES, FAULT_OPERATIONS, type FaultOperation, type FaultRule } from './types.ts';
import { isObject } from './values.ts';

export class FaultBook {
  private rules: { rule: FaultRule; remaining: number }[] = [];

  add(rule: FaultRule): void {
    const checked = checkFaultRule(rule);
    this.rules.push({ rule: checked, remaining: checked.count ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules still waiting, `count` being what is left of each. */
  list(): FaultRule[] {
    return this.rules.map(({ rule, remaining }) => ({ ...rule, count: remaining }));
  }

  /** The rule that applies to this request of `operation`, consumed by one; undefined when none. */
  take(operation: FaultOperation): FaultRule | undefined {
    const index = this.rules.findIndex((entry) => entry.rule.operation === operation);
    const entry = this.rules[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.rules.splice(index, 1);
    return entry.rule;
  }
}

/** The rule as given, checked (an unknown operation or mode would silently never fire). */
export function checkFaultRule(input: unknown): FaultRule {
  if (!isObject(input)) throw new TypeError('a fault rule is an object');
  const { operation, mode, count, status, nome, mensagem, delayMs } = input;
  if (!FAULT_OPERATIONS.includes(operation as FaultOperation)) throw new TypeError(`unknown fault operation ${String(operation)}`);
  if (!FAULT_MODES.includes(mode as FaultRule['mode'])) throw new TypeError(`unknown fault mode ${String(mode)}`);
  const rule: FaultRule = { operation: operation as FaultOperation, mode: mode as FaultRule['mode'] };
  if (count !== undefined) {
    if (!Number.isSafeInteger(count) || (count as number) < 1) throw new TypeError('count must be a positive integer');
    rule.count = count as number;
  }
  if (status !== undefined) {
    if (!Number.isSafeInteger(status) || (status as number) < 400 || (status as number) > 599) throw new TypeError('status must be 400..599');
    rule.status = status as number;
  }
  if (nome !== undefined) {
    if (typeof nome !== 'string' || nome === '') throw new TypeError('nome must be a string');
    rule.nome = nome;
  }
  if (mensagem !== undefined) {
    if (typeof mensagem !== 'string') throw new TypeError('mensagem must be a string');
    rule.mensagem = mensagem;
  }
  if (delayMs !== undefined) {
    if (!Number.isSafeInteger(delayMs) || (delayMs as number) < 0) throw new TypeError('delayMs must be a non-negative integer');
    rule.delayMs = delayMs as number;
  }
  return rule;
}
