/**
 * São Paulo's calendar (America/Sao_Paulo, by the zone's rules, not a constant offset): the dashboard's
 * dates and exports, and the day the reconciliation with the provider compares.
 */
const TIME_ZONE = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;

const clock = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function saoPauloParts(ms: number): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const parts = Object.fromEntries(clock.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

/** São Paulo's offset from UTC at `ms` (negative: −3 h today; the zone's rules, not a constant). */
function offsetMs(ms: number): number {
  const p = saoPauloParts(ms);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a São Paulo calendar day begins: its midnight under the offset in force then, or, on a day
 * whose midnight did not exist (daylight saving began at 00:00 until 2018), the change of offset itself.
 * The candidates are midnight under the offsets in force half a day either side; the first one that falls
 * on the day is its start.
 */
export function dayStart(year: number, month: number, day: number): number {
  const local = Date.UTC(year, month - 1, day);
  const candidates = [local - offsetMs(local - DAY_MS / 2), local - offsetMs(local + DAY_MS / 2)].sort((a, b) => a - b);
  const calendarDay = new Date(local).getUTCDate(); // `day` may run past the month's end (the day after `to`)
  return candidates.find((instant) => saoPauloParts(instant).day === calendarDay) ?? candidates[0]!;
}

/** `26/11/2026 14:03:05`, São Paulo time. */
export function saoPauloDateTime(ms: number): string {
  const p = saoPauloParts(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(p.day)}/${two(p.month)}/${p.year} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}


/** The São Paulo calendar day of an instant, `YYYY-MM-DD`. */
export function saoPauloDay(ms: number): string {
  const p = saoPauloParts(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}`;
}

/** The instants a São Paulo day (`YYYY-MM-DD`) spans: from its start to the last millisecond before the next day's. */
export function saoPauloDayPeriod(day: string): { fromMs: number; toMs: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`not a day: ${day}`);
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return { fromMs: dayStart(year, month, date), toMs: dayStart(year, month, date + 1) - 1 };
}
